package io.tally.local;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks the runner makes before it starts anything: the host is an address of this machine, the ports are
 * free, the directories can be written. A setting that cannot work fails here, with the option to change, and
 * leaves nothing half running.
 */
final class Preflight {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);

    private Preflight() {
    }

    static InetAddress localAddress(String host) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new StartupException("unknown host '" + host + "'; pass --host with an address of this machine", e);
        }
        try {
            if (!address.isAnyLocalAddress() && NetworkInterface.getByInetAddress(address) == null) {
                throw new StartupException(host + " is not an address of this machine; pass --host with one, "
                        + "e.g. 127.0.0.1");
            }
        } catch (SocketException e) {
            LOG.debug("cannot list the network interfaces; trying {} anyway", host, e);
        }
        return address;
    }

    /** Fails before anything starts, so that a taken port leaves nothing half running. */
    static void ensureFree(InetAddress address, int port, String option) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            // As the servers will: a port still in TIME_WAIT from a previous run is free to listen on.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
        } catch (BindException e) {
            if (String.valueOf(e.getMessage()).toLowerCase().contains("in use")) {
                throw new PortInUseException(address.getHostAddress(), port, option, e);
            }
            throw new StartupException("cannot listen on port " + port + " of " + address.getHostAddress() + ": "
                    + e.getMessage() + "; pass " + option + " to choose another", e);
        } catch (IOException e) {
            throw new StartupException("cannot listen on port " + port + " of " + address.getHostAddress() + ": "
                    + e.getMessage(), e);
        }
    }

    static int freePort(InetAddress address) {
        try (ServerSocket socket = new ServerSocket(0, 1, address)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new StartupException("cannot find a free port on " + address.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    static void prepareDir(Path dir, String option) {
        if (dir == null) {
            return;
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StartupException(option + " " + dir + " is a file, not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StartupException("cannot create " + option + " " + dir + ": " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new StartupException(option + " " + dir + " is not writable");
        }
        ownerOnly(dir, option);
    }

    /**
     * Makes the data directory and everything in it its owner's alone (directories {@code rwx------}, files
     * {@code rw-------}): it holds every item of the table, the events and the signing key. What the runner writes
     * there later is inside a directory no one else may enter. A file system without POSIX permissions is left as it
     * is.
     */
    static void ownerOnly(Path dir, String option) {
        try (java.util.stream.Stream<Path> tree = Files.walk(dir)) {
            if (!Files.getFileStore(dir).supportsFileAttributeView(
                    java.nio.file.attribute.PosixFileAttributeView.class)) {
                return;
            }
            for (Path path : (Iterable<Path>) tree::iterator) {
                if (!Files.isSymbolicLink(path)) {
                    Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString(
                            Files.isDirectory(path) ? "rwx------" : "rw-------"));
                }
            }
        } catch (IOException e) {
            throw new StartupException("cannot make " + option + " " + dir + " private to its owner: " + e, e);
        }
    }
}
