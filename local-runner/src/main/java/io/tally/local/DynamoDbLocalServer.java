package io.tally.local;

import java.io.File;
import java.lang.reflect.Field;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.AbstractLocalDynamoDBServerHandler;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.server.LocalDynamoDBRequestHandler;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;
import software.amazon.dynamodb.services.local.shared.access.LocalDBClient;
import software.amazon.dynamodb.services.local.shared.jobs.JobsRegister;

/**
 * Amazon DynamoDB Local's HTTP server, started in this JVM. With a data directory, its database is a
 * {@link DurableSQLiteDBAccess}, so that a transaction is committed before it is acknowledged.
 */
final class DynamoDbLocalServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoDbLocalServer.class);
    /** The database name DynamoDB Local uses with {@code -sharedDb} ({@code LocalDynamoDBRequestHandler}). */
    static final String SHARED_DB = "shared-local-instance";
    /** The size of the pool DynamoDB Local gives each database's background jobs (index builds, TTL). */
    private static final int JOB_THREADS = 10;

    private final DynamoDBProxyServer server;
    private final boolean boundToHost;
    private final boolean durableTransactions;

    private DynamoDbLocalServer(DynamoDBProxyServer server, boolean boundToHost, boolean durableTransactions) {
        this.server = server;
        this.boundToHost = boundToHost;
        this.durableTransactions = durableTransactions;
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
        boolean durable = dataDir != null && commitBeforeAnswering(server, dataDir);
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
        return new DynamoDbLocalServer(server, bound, durable);
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

    /**
     * Whether a transaction is committed before DynamoDB Local answers it ({@link DurableSQLiteDBAccess}); false in
     * memory, where nothing survives the process anyway, and if this DynamoDB Local is built differently.
     */
    boolean durableTransactions() {
        return durableTransactions;
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

    /**
     * DynamoDB Local opens its database on the first request ({@code LocalDynamoDBRequestHandler.getHandler}), as a
     * plain {@code SQLiteDBAccess}, which acknowledges a transaction before its {@code COMMIT} has run (see
     * {@link DurableSQLiteDBAccess}). Before any request, the runner puts a client on a {@link DurableSQLiteDBAccess}
     * of the same file where DynamoDB Local looks for it first, so it never opens its own. If a future DynamoDB Local
     * is built differently, the runner still works, with transactions that a killed process may lose, and says so.
     */
    private static boolean commitBeforeAnswering(DynamoDBProxyServer proxy, Path dataDir) {
        try {
            Field serverHandler = DynamoDBProxyServer.class.getDeclaredField("serverHandler");
            serverHandler.setAccessible(true);
            Field primaryHandler = AbstractLocalDynamoDBServerHandler.class.getDeclaredField("primaryHandler");
            primaryHandler.setAccessible(true);
            Object requests = primaryHandler.get(serverHandler.get(proxy));
            if (requests instanceof LocalDynamoDBRequestHandler local) {
                Field handlers = LocalDynamoDBRequestHandler.class.getDeclaredField("dbRequestHandlers");
                handlers.setAccessible(true);
                @SuppressWarnings("unchecked")
                Map<String, AmazonDynamoDBLocal> databases = (Map<String, AmazonDynamoDBLocal>) handlers.get(local);
                if (databases.isEmpty()) {
                    File file = dataDir.resolve(SHARED_DB + ".db").toFile();
                    databases.put(SHARED_DB, new LocalDBClient(new DurableSQLiteDBAccess(file),
                            new JobsRegister(Executors.newFixedThreadPool(JOB_THREADS), false)));
                    return true;
                }
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.debug("cannot reach DynamoDB Local's database", e);
        }
        LOG.warn("DynamoDB Local may acknowledge a transaction before committing it: a process killed right after "
                + "may lose the transactions it acknowledged last");
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
