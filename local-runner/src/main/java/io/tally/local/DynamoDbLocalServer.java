package io.tally.local;

import java.lang.reflect.Field;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/** Amazon DynamoDB Local's HTTP server, started in this JVM. */
final class DynamoDbLocalServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoDbLocalServer.class);

    private final DynamoDBProxyServer server;
    private final boolean boundToHost;

    private DynamoDbLocalServer(DynamoDBProxyServer server, boolean boundToHost) {
        this.server = server;
        this.boundToHost = boundToHost;
    }

    /**
     * Starts the server on {@code host:port}, in memory or in {@code dataDir}.
     *
     * @throws PortInUseException if the port is taken
     */
    static DynamoDbLocalServer start(String host, int port, Path dataDir) {
        DynamoDBProxyServer server;
        try {
            // As ServerRunner.createServerFromCommandLineArgs, minus the configuration banner it prints on stdout,
            // which would bury the runner's own summary.
            CommandLineInput input = new CommandLineInput(arguments(port, dataDir).toArray(String[]::new));
            if (!input.init()) {
                throw new IllegalArgumentException("invalid arguments " + arguments(port, dataDir));
            }
            server = ServerRunner.createServer(input);
        } catch (Exception e) {
            throw new StartupException("DynamoDB Local rejected its settings: " + e.getMessage(), e);
        }
        boolean bound = listenOnlyOn(server, host);
        try {
            // Not start(): it reports a port in use on stderr and returns as if it had started.
            server.safeStart();
        } catch (Exception e) {
            stopQuietly(server);
            if (hasCause(e, BindException.class)) {
                throw new PortInUseException(host, port, "--dynamodb-port", e);
            }
            throw new StartupException("DynamoDB Local did not start: " + e.getMessage(), e);
        }
        return new DynamoDbLocalServer(server, bound);
    }

    static List<String> arguments(int port, Path dataDir) {
        // -sharedDb: one database whatever the credentials and region of a client, so the writer, the aws CLI and
        // a test client all see the same table. -disableTelemetry: a developer's machine phones nobody.
        List<String> args = new ArrayList<>(List.of("-sharedDb", "-disableTelemetry", "-port", Integer.toString(port)));
        if (dataDir == null) {
            args.add("-inMemory");
        } else {
            args.add("-dbPath");
            args.add(dataDir.toString());
        }
        return args;
    }

    /** False when DynamoDB Local listens on all interfaces, because it could not be narrowed to the host. */
    boolean boundToHost() {
        return boundToHost;
    }

    @Override
    public void close() {
        try {
            // Also closes the database, so that a later start on the same data directory opens it afresh.
            server.stop();
        } catch (Exception e) {
            LOG.warn("DynamoDB Local did not stop cleanly: {}", e.toString());
        }
    }

    /**
     * DynamoDB Local's Jetty listens on every interface and offers no option to change that. A database that
     * answers anyone on the network without checking credentials should not, so its connector is narrowed to
     * the runner's host. If a future DynamoDB Local is built differently, the runner still works, only less
     * privately, and says so.
     */
    private static boolean listenOnlyOn(DynamoDBProxyServer proxy, String host) {
        try {
            Field field = DynamoDBProxyServer.class.getDeclaredField("server");
            field.setAccessible(true);
            Server jetty = (Server) field.get(proxy);
            boolean narrowed = false;
            for (Connector connector : jetty.getConnectors()) {
                if (connector instanceof ServerConnector serverConnector) {
                    serverConnector.setHost(host);
                    narrowed = true;
                }
            }
            if (narrowed) {
                return true;
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.debug("cannot reach DynamoDB Local's connector", e);
        }
        LOG.warn("DynamoDB Local listens on all network interfaces, not only on {}", host);
        return false;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static void stopQuietly(DynamoDBProxyServer server) {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.debug("stopping DynamoDB Local after a failed start", e);
        }
    }
}
