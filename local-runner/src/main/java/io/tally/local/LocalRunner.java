package io.tally.local;

import io.tally.core.TableDefinition;
import io.tally.local.demo.RunningTally;
import io.tally.local.events.EventRules;
import io.tally.local.events.InvalidRuleException;
import io.tally.local.events.LocalEventBus;
import io.tally.local.http.HttpFront;
import io.tally.local.stream.PollerSnapshot;
import io.tally.writer.WriterConfig;
import io.tally.writer.WriterHandler;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Tally on one machine, in one process: Amazon DynamoDB Local with the table, the writer API behind an
 * {@link HttpFront} that speaks API Gateway's events to the very handler deployed on AWS, and a
 * {@link LocalEventBus} that takes EventBridge's PutEvents and matches the events against the rule files.
 *
 * <p>{@code java -jar tally-local.jar} runs it from a terminal ({@link #main}); tests call {@link #start} with
 * {@link Settings#ephemeral()} and {@link #close} it.
 */
public final class LocalRunner implements AutoCloseable, RunningTally {
    /** The writer's function name, as in the deployment. */
    public static final String WRITER_FUNCTION = "tally-writer";
    /** Where the HTTP front serves the local event bus's recent events. */
    public static final String EVENTS_PATH = "/events";
    /** Where the HTTP front serves the stream processor's meters in Prometheus's text format. */
    public static final String METRICS_PATH = "/metrics";
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);
    private static final Duration TABLE_READY_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to run where.
     *
     * @param host         the address every server listens on
     * @param port         the writer API's HTTP port; 0 picks a free one
     * @param dynamoDbPort DynamoDB Local's port; 0 picks a free one
     * @param dataDir      where DynamoDB Local keeps its database across restarts; null keeps it in memory
     * @param tableName    the table, created on start if it does not exist
     * @param eventsPort   the local event bus's port (EventBridge PutEvents); 0 picks a free one
     * @param rulesDir     the event rule files; null takes the ones packaged with the runner
     * @param eventsDir    where each rule's matched events are appended ({@code <rule>.jsonl}); null means
     *                     {@code <dataDir>/events}, or without a data directory a temporary one removed on close
     */
    public record Settings(String host, int port, int dynamoDbPort, Path dataDir, String tableName, int eventsPort,
            Path rulesDir, Path eventsDir) {
        public static final String DEFAULT_HOST = "127.0.0.1";
        public static final int DEFAULT_PORT = 8080;
        public static final int DEFAULT_DYNAMODB_PORT = 8000;
        public static final int DEFAULT_EVENTS_PORT = LocalEventBus.DEFAULT_PORT;
        public static final String DEFAULT_TABLE_NAME = "tally";
        /** DynamoDB's own rule for table names. */
        private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

        public Settings {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(tableName, "tableName");
            if (host.isBlank()) {
                throw new IllegalArgumentException("the host must not be blank");
            }
            checkPort(port, "--port");
            checkPort(dynamoDbPort, "--dynamodb-port");
            checkPort(eventsPort, "--events-port");
            checkDistinct(port, "--port", dynamoDbPort, "--dynamodb-port");
            checkDistinct(port, "--port", eventsPort, "--events-port");
            checkDistinct(dynamoDbPort, "--dynamodb-port", eventsPort, "--events-port");
            if (!TABLE_NAME.matcher(tableName).matches()) {
                throw new IllegalArgumentException("table name '" + tableName
                        + "' is not a DynamoDB table name: 3 to 255 letters, digits, '_', '-' or '.'");
            }
            dataDir = dataDir == null ? null : dataDir.toAbsolutePath().normalize();
            rulesDir = rulesDir == null ? null : rulesDir.toAbsolutePath().normalize();
            eventsDir = eventsDir == null ? null : eventsDir.toAbsolutePath().normalize();
        }

        /**
         * The defaults of the command: the usual ports on the loopback interface, in memory, table {@code tally},
         * the packaged event rules.
         */
        public static Settings defaults() {
            return new Settings(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_DYNAMODB_PORT, null, DEFAULT_TABLE_NAME,
                    DEFAULT_EVENTS_PORT, null, null);
        }

        /** Free ports chosen at start, in memory: what a test wants. */
        public static Settings ephemeral() {
            return defaults().withPort(0).withDynamoDbPort(0).withEventsPort(0);
        }

        public Settings withHost(String value) {
            return new Settings(value, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir);
        }

        public Settings withPort(int value) {
            return new Settings(host, value, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir);
        }

        public Settings withDynamoDbPort(int value) {
            return new Settings(host, port, value, dataDir, tableName, eventsPort, rulesDir, eventsDir);
        }

        public Settings withDataDir(Path value) {
            return new Settings(host, port, dynamoDbPort, value, tableName, eventsPort, rulesDir, eventsDir);
        }

        public Settings withTableName(String value) {
            return new Settings(host, port, dynamoDbPort, dataDir, value, eventsPort, rulesDir, eventsDir);
        }

        public Settings withEventsPort(int value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, value, rulesDir, eventsDir);
        }

        public Settings withRulesDir(Path value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, value, eventsDir);
        }

        public Settings withEventsDir(Path value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, value);
        }

        private static void checkPort(int port, String option) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException(option + " must be between 0 and 65535, not " + port);
            }
        }

        private static void checkDistinct(int port, String option, int otherPort, String otherOption) {
            if (port != 0 && port == otherPort) {
                throw new IllegalArgumentException(option + " and " + otherOption + " must differ, both are " + port);
            }
        }
    }

    private final Settings settings;
    private final DynamoDbLocalServer dynamoDb;
    private final int dynamoDbPort;
    private final URI dynamoDbEndpoint;
    private final boolean tableCreated;
    private final EventsDir eventsDir;
    private final LocalEventBus events;
    private final StreamPipeline stream;
    private final HttpFront front;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private LocalRunner(Settings settings, DynamoDbLocalServer dynamoDb, int dynamoDbPort, URI dynamoDbEndpoint,
            boolean tableCreated, EventsDir eventsDir, LocalEventBus events, StreamPipeline stream, HttpFront front) {
        this.settings = settings;
        this.dynamoDb = dynamoDb;
        this.dynamoDbPort = dynamoDbPort;
        this.dynamoDbEndpoint = dynamoDbEndpoint;
        this.tableCreated = tableCreated;
        this.eventsDir = eventsDir;
        this.events = events;
        this.stream = stream;
        this.front = front;
    }

    /** Where the event files go, and whether the runner made it up and so removes it on close. */
    private record EventsDir(Path path, boolean temporary) {
    }

    /** The command line: {@code tally-local --help}. */
    public static void main(String[] args) {
        int status = LocalRunnerCommand.execute(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Loads the event rules, starts DynamoDB Local, creates the table unless it exists, starts the local event bus,
     * the HTTP front (the writer API, {@code GET /events} and {@code GET /metrics}) and then the stream processor
     * (the stream poller invoking the stream handler).
     *
     * @throws PortInUseException if a port is taken (nothing has been started then)
     * @throws StartupException   for other settings that cannot work on this machine
     */
    public static LocalRunner start(Settings settings) {
        InetAddress address = localAddress(settings.host());
        String host = address.getHostAddress();
        ensureFree(address, settings.port(), "--port");
        ensureFree(address, settings.dynamoDbPort(), "--dynamodb-port");
        ensureFree(address, settings.eventsPort(), "--events-port");
        prepareDir(settings.dataDir(), "--data-dir");
        prepareDir(settings.eventsDir(), "--events-dir");
        // Before anything starts: a broken rule file is the user's to fix, like a port in use.
        EventRules rules = loadRules(settings.rulesDir());

        int dynamoDbPort = settings.dynamoDbPort() == 0 ? freePort(address) : settings.dynamoDbPort();
        URI endpoint = URI.create("http://" + HttpFront.clientHost(address) + ":" + dynamoDbPort);
        // Building the first SDK client loads thousands of classes: half a second spent while DynamoDB Local starts.
        CompletableFuture<DynamoDbClient> adminClient = CompletableFuture.supplyAsync(() -> adminClient(endpoint),
                task -> newDaemonThread(task, "tally-local-sdk-init").start());
        DynamoDbLocalServer dynamoDb;
        try {
            dynamoDb = DynamoDbLocalServer.start(host, dynamoDbPort, settings.dataDir());
        } catch (RuntimeException | Error e) {
            adminClient.thenAccept(DynamoDbClient::close);
            throw e;
        }
        try {
            boolean created;
            try (DynamoDbClient admin = join(adminClient)) {
                created = ensureTable(admin, settings.tableName());
            }
            return startServers(settings, host, dynamoDb, dynamoDbPort, endpoint, created, rules);
        } catch (RuntimeException | Error e) {
            dynamoDb.close();
            throw e;
        }
    }

    /**
     * The event bus, the stream processor (built, not yet polling), the front that serves the writer API, the bus's
     * recent events and the meters, then the poller.
     */
    private static LocalRunner startServers(Settings settings, String host, DynamoDbLocalServer dynamoDb,
            int dynamoDbPort, URI endpoint, boolean created, EventRules rules) {
        EventsDir eventsDir = eventsDir(settings);
        LocalEventBus events = null;
        StreamPipeline stream = null;
        try {
            try {
                events = LocalEventBus.start(LocalEventBus.Settings.of(host, settings.eventsPort(), eventsDir.path()),
                        rules);
            } catch (BindException e) {
                throw new PortInUseException(host, settings.eventsPort(), "--events-port", e);
            } catch (IOException e) {
                throw new StartupException("the event bus did not start: " + e.getMessage(), e);
            }
            stream = StreamPipeline.create(endpoint, settings.tableName(), events.endpoint(), events.busName(),
                    settings.dataDir());
            WriterHandler writer = new WriterHandler(WriterConfig.local(settings.tableName(), endpoint));
            HttpFront front;
            try {
                front = HttpFront.start(host, settings.port(), WRITER_FUNCTION, writer,
                        Map.of(EVENTS_PATH, events.recentEventsRoute(), METRICS_PATH,
                                new MetricsHandler(stream::scrape)));
            } catch (BindException e) {
                throw new PortInUseException(host, settings.port(), "--port", e);
            } catch (IOException e) {
                throw new StartupException("the HTTP front did not start: " + e.getMessage(), e);
            }
            try {
                stream.start();
            } catch (RuntimeException | Error e) {
                front.close();
                throw e;
            }
            return new LocalRunner(settings, dynamoDb, dynamoDbPort, endpoint, created, eventsDir, events, stream,
                    front);
        } catch (RuntimeException | Error e) {
            if (stream != null) {
                stream.close();
            }
            if (events != null) {
                events.close();
            }
            removeIfTemporary(eventsDir);
            throw e;
        }
    }

    /** The writer API, e.g. {@code http://127.0.0.1:8080}. */
    @Override
    public URI baseUri() {
        return front.baseUri();
    }

    /** The port of the writer API (the chosen one when started with port 0). */
    public int port() {
        return front.port();
    }

    /** DynamoDB Local's endpoint, e.g. {@code http://127.0.0.1:8000}, for {@code --endpoint-url} or an SDK client. */
    /** The event source mapping settings the stream poller runs with. */
    public io.tally.local.stream.EsmSettings streamSettings() {
        return stream.settings();
    }

    public URI dynamoDbEndpoint() {
        return dynamoDbEndpoint;
    }

    /** DynamoDB Local's port (the chosen one when started with port 0). */
    public int dynamoDbPort() {
        return dynamoDbPort;
    }

    /**
     * The local event bus's endpoint, e.g. {@code http://127.0.0.1:8001}: the {@code endpointOverride} of an
     * {@code EventBridgeClient} that publishes to it (any region and credentials; the bus checks neither).
     */
    public URI eventsEndpoint() {
        return events.endpoint();
    }

    /** The name entries give as {@code EventBusName} ({@code default} is accepted too). */
    public String eventBusName() {
        return events.busName();
    }

    /** The local event bus: its rules, their files and the recent events. */
    public LocalEventBus eventBus() {
        return events;
    }

    public String tableName() {
        return settings.tableName();
    }

    /**
     * Waits until every record the table's stream holds now has been processed by the stream processor (or sent to
     * its failure file): after a write has been answered, its derived data is then in the table.
     *
     * @throws TimeoutException if that takes longer than {@code timeout}
     */
    public void awaitDrained(Duration timeout) throws InterruptedException, TimeoutException {
        stream.awaitDrained(timeout);
    }

    /** The stream poller's counters and the progress of each shard. */
    @Override
    public PollerSnapshot streamSnapshot() {
        return stream.snapshot();
    }

    /** The largest lag of a shard of the stream: zero when everything written has been processed. */
    @Override
    public Duration streamLag() {
        return StreamPipeline.maxLag(stream.snapshot());
    }

    /** The stream processor's meters, as {@code GET /metrics} serves them. */
    public String metricsText() {
        return stream.scrape();
    }

    /** Where the data lives across restarts; empty when it lives in memory. */
    public Optional<Path> dataDir() {
        return Optional.ofNullable(settings.dataDir());
    }

    /** Whether this start created the table (false when a data directory already held it). */
    public boolean tableCreated() {
        return tableCreated;
    }

    /** What runs where, for a person at a terminal. */
    public String summary() {
        String endpoint = dynamoDbEndpoint.toString();
        String data = dataDir().map(dir -> dir + (tableCreated ? " (new table)" : " (table reused)"))
                .orElse("in memory (gone when stopped; pass --data-dir DIR to keep it)");
        EventRules rules = events.rules();
        String ruleNames = rules.names().isEmpty() ? "none" : String.join(", ", rules.names());
        String files = eventsDir.path() + File.separator + "<rule>.jsonl"
                + (eventsDir.temporary() ? " (removed when stopped; pass --events-dir DIR to keep them)" : "");
        return String.join(System.lineSeparator(),
                "tally-local is running",
                "  writer API      " + baseUri(),
                "                  curl -s -XPOST " + baseUri() + "/users -d '{\"name\":\"Ada\",\"email\":\"ada@example.com\"}'",
                "  DynamoDB Local  " + endpoint + "  table " + tableName(),
                "                  aws dynamodb scan --table-name " + tableName() + " --endpoint-url " + endpoint,
                "                  (any region and credentials; the access key id must be letters and digits)",
                "  events          " + eventsEndpoint() + " (EventBridge PutEvents), GET " + baseUri() + EVENTS_PATH,
                "                  bus " + eventBusName() + ", rules from " + rules.origin() + ": " + ruleNames,
                "                  matched events appended to " + files,
                "  stream          " + stream.streamArn(),
                "                  handler " + StreamPipeline.FUNCTION + " (WindowedStreamHandler), checkpoints "
                        + stream.checkpointsDescription(),
                "                  failed batches appended to " + stream.failureFile()
                        + (stream.failuresTemporary() ? " (removed when stopped unless there are any)" : ""),
                "  metrics         GET " + baseUri() + METRICS_PATH + " (Prometheus text format)",
                "  data            " + data,
                "Ctrl-C to stop");
    }

    /**
     * Stops the HTTP front (letting requests in flight finish), then the stream poller (letting invocations in
     * flight finish; what is not checkpointed is delivered again on the next start with the same data directory),
     * then the event bus, then DynamoDB Local. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            front.close();
        } finally {
            try {
                stream.close();
            } finally {
                try {
                    events.close();
                    removeIfTemporary(eventsDir);
                } finally {
                    dynamoDb.close();
                    stopped.countDown();
                }
            }
        }
    }

    /** Blocks until {@link #close} has finished. */
    public void awaitClose() throws InterruptedException {
        stopped.await();
    }

    private static InetAddress localAddress(String host) {
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
    private static void ensureFree(InetAddress address, int port, String option) {
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

    private static int freePort(InetAddress address) {
        try (ServerSocket socket = new ServerSocket(0, 1, address)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new StartupException("cannot find a free port on " + address.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    private static void prepareDir(Path dir, String option) {
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
    }

    private static EventRules loadRules(Path rulesDir) {
        try {
            return rulesDir == null ? EventRules.fromClasspath() : EventRules.fromDirectory(rulesDir);
        } catch (InvalidRuleException e) {
            throw new StartupException(e.getMessage(), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new StartupException(e.getMessage() + (rulesDir == null ? "; pass --rules-dir DIR" : ""), e);
        }
    }

    /**
     * Without a data directory nothing of a run is kept, so neither are its event files: they go to a temporary
     * directory that close() removes.
     */
    private static EventsDir eventsDir(Settings settings) {
        if (settings.eventsDir() != null) {
            return new EventsDir(settings.eventsDir(), false);
        }
        if (settings.dataDir() != null) {
            return new EventsDir(settings.dataDir().resolve("events"), false);
        }
        try {
            return new EventsDir(Files.createTempDirectory("tally-events-"), true);
        } catch (IOException e) {
            throw new StartupException("cannot create a temporary directory for the event files: " + e
                    + "; pass --events-dir DIR", e);
        }
    }

    private static void removeIfTemporary(EventsDir dir) {
        if (!dir.temporary()) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir.path())) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not remove the temporary event files in {}: {}", dir.path(), e.toString());
        }
    }

    /** Creates the table from Tally's one definition unless it exists; returns whether it created it. */
    private static boolean ensureTable(DynamoDbClient dynamo, String table) {
        CreateTableRequest definition = TableDefinition.createTableRequest(table);
        boolean created;
        try {
            TableDescription existing = dynamo.describeTable(r -> r.tableName(table)).table();
            warnIfIndexesDiffer(existing, definition);
            created = false;
        } catch (ResourceNotFoundException e) {
            try {
                dynamo.createTable(definition);
                created = true;
            } catch (ResourceInUseException raced) {
                created = false;
            }
        }
        awaitActive(dynamo, table);
        return created;
    }

    /**
     * The DynamoDB waiter polls every 20 seconds, made for AWS; DynamoDB Local is ready in milliseconds, and a
     * slow start-up would tempt people to skip the runner.
     */
    private static void awaitActive(DynamoDbClient dynamo, String table) {
        long deadline = System.nanoTime() + TABLE_READY_TIMEOUT.toNanos();
        while (true) {
            TableDescription description = dynamo.describeTable(r -> r.tableName(table)).table();
            boolean indexesActive = description.globalSecondaryIndexes().stream()
                    .allMatch(index -> index.indexStatus() == IndexStatus.ACTIVE);
            if (description.tableStatus() == TableStatus.ACTIVE && indexesActive) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new StartupException("table " + table + " is still " + description.tableStatusAsString()
                        + " after " + TABLE_READY_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupException("interrupted while waiting for table " + table, e);
            }
        }
    }

    /** A table kept in a data directory may predate an index the code now needs; say so instead of failing later. */
    private static void warnIfIndexesDiffer(TableDescription existing, CreateTableRequest definition) {
        indexDrift(existing, definition).ifPresent(LOG::warn);
    }

    /**
     * What differs between the indexes of an existing table (a data directory of an earlier version) and the
     * definition, by name and key schema: an index with other keys would silently miss the items written now.
     */
    static Optional<String> indexDrift(TableDescription existing, CreateTableRequest definition) {
        Set<String> have = Stream.concat(
                        existing.globalSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())),
                        existing.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> want = Stream.concat(
                        definition.globalSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())),
                        definition.localSecondaryIndexes().stream().map(i -> describe(i.indexName(), i.keySchema())))
                .collect(Collectors.toCollection(TreeSet::new));
        if (have.equals(want)) {
            return Optional.empty();
        }
        return Optional.of("table " + existing.tableName() + " has indexes " + have + " but the current definition has "
                + want + "; to recreate it, stop the runner and delete the data directory");
    }

    private static String describe(String indexName, List<KeySchemaElement> keys) {
        return indexName + keys.stream().map(k -> k.attributeName() + " " + k.keyTypeAsString())
                .collect(Collectors.joining(", ", "(", ")"));
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static Thread newDaemonThread(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private static DynamoDbClient adminClient(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                // DynamoDB Local (with -sharedDb) ignores credentials but rejects key ids other than letters/digits.
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }
}
