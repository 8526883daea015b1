package io.tally.local;

import io.tally.local.demo.RunningTally;
import io.tally.local.events.LocalEventBus;
import io.tally.local.http.HttpFront;
import io.tally.local.stream.EsmSettings;
import io.tally.local.stream.PollerSnapshot;
import io.tally.stream.StreamWiring;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Tally on one machine, in one process: Amazon DynamoDB Local with the table, the writer API behind an
 * {@link HttpFront} that speaks API Gateway's events to the very handler deployed on AWS, and a
 * {@link LocalEventBus} that takes EventBridge's PutEvents and matches the events against the rule files.
 *
 * <p>{@code java -jar tally-local.jar} runs it from a terminal ({@link #main}); tests call {@link #start} with
 * {@link Settings#ephemeral()} and {@link #close} it.
 *
 * <p>The runner holds what runs and stops it; {@link RunnerStartup} wires and starts it, after the checks of
 * {@link Preflight}, with the table of {@link TableSetup}; {@link RunnerSummary} describes it.
 */
public final class LocalRunner implements AutoCloseable, RunningTally {
    /** The writer's function name, as in the deployment. */
    public static final String WRITER_FUNCTION = "tally-writer";
    /**
     * The {@code source} of the events the stream processor publishes, as on AWS: the stream function's default,
     * which the packaged rules ({@code infra/events/rules}) match.
     */
    public static final String EVENT_SOURCE = StreamWiring.DEFAULT_EVENT_SOURCE;
    /** Where the HTTP front serves the local event bus's recent events. */
    public static final String EVENTS_PATH = "/events";
    /** The rule whose events the subscriber example (the activity feed) gets, as on AWS. */
    public static final String ACTIVITY_FEED_RULE = "activity-feed";
    /** The subscriber example's function name, as in the deployment. */
    public static final String ACTIVITY_FEED_FUNCTION = "tally-activity-feed";
    /** Where the HTTP front serves the stream processor's meters in Prometheus's text format. */
    public static final String METRICS_PATH = "/metrics";

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
     * @param auth         {@code --auth}: the front verifies bearer tokens signed by the local key (kept in the data
     *                     directory, or in memory) and the writer checks every route's access rule, as deployed
     */
    public record Settings(String host, int port, int dynamoDbPort, Path dataDir, String tableName, int eventsPort,
            Path rulesDir, Path eventsDir, boolean auth) {
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

        /** Open, without access control (the default). */
        public Settings(String host, int port, int dynamoDbPort, Path dataDir, String tableName, int eventsPort,
                Path rulesDir, Path eventsDir) {
            this(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir, false);
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
            return new Settings(value, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir, auth);
        }

        public Settings withPort(int value) {
            return new Settings(host, value, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir, auth);
        }

        public Settings withDynamoDbPort(int value) {
            return new Settings(host, port, value, dataDir, tableName, eventsPort, rulesDir, eventsDir, auth);
        }

        public Settings withDataDir(Path value) {
            return new Settings(host, port, dynamoDbPort, value, tableName, eventsPort, rulesDir, eventsDir, auth);
        }

        public Settings withTableName(String value) {
            return new Settings(host, port, dynamoDbPort, dataDir, value, eventsPort, rulesDir, eventsDir, auth);
        }

        public Settings withEventsPort(int value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, value, rulesDir, eventsDir, auth);
        }

        public Settings withRulesDir(Path value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, value, eventsDir, auth);
        }

        public Settings withAuth(boolean value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, eventsDir, value);
        }

        public Settings withEventsDir(Path value) {
            return new Settings(host, port, dynamoDbPort, dataDir, tableName, eventsPort, rulesDir, value, auth);
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
    private final io.tally.local.auth.LocalAuth auth;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    /**
     * What {@link RunnerStartup} started, to be stopped in {@link #close}; {@code auth}: the local token key with
     * {@code --auth}, null when open.
     */
    LocalRunner(Settings settings, DynamoDbLocalServer dynamoDb, int dynamoDbPort, URI dynamoDbEndpoint,
            boolean tableCreated, EventsDir eventsDir, LocalEventBus events, StreamPipeline stream, HttpFront front,
            io.tally.local.auth.LocalAuth auth) {
        this.auth = auth;
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
        return RunnerStartup.start(settings);
    }

    /** The subscriber example's own table beside {@code tableName}: {@code tally-activity} for {@code tally}. */
    public static String activityTableName(String tableName) {
        return tableName + io.tally.core.activity.ActivityFeed.LOCAL_SUFFIX;
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

    /** The event source mapping settings the stream poller runs with. */
    public EsmSettings streamSettings() {
        return stream.settings();
    }

    /** DynamoDB Local's endpoint, e.g. {@code http://127.0.0.1:8000}, for {@code --endpoint-url} or an SDK client. */
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
    /** With {@code --auth}: the key that signs and verifies local tokens; empty when the runner is open. */
    public Optional<io.tally.local.auth.LocalAuth> auth() {
        return Optional.ofNullable(auth);
    }

    public Optional<Path> dataDir() {
        return Optional.ofNullable(settings.dataDir());
    }

    /** Whether this start created the table (false when a data directory already held it). */
    public boolean tableCreated() {
        return tableCreated;
    }

    /** What runs where, for a person at a terminal. */
    public String summary() {
        return RunnerSummary.of(this, eventsDir, stream);
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
                    eventsDir.removeIfTemporary();
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
}
