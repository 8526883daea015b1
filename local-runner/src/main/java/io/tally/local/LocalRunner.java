package io.tally.local;

import io.tally.core.domain.DomainRegistry;
import io.tally.local.demo.RunningTally;
import io.tally.local.events.LocalEventBus;
import io.tally.local.http.HttpFront;
import io.tally.local.stream.EsmSettings;
import io.tally.local.stream.PollerSnapshot;
import io.tally.stream.StreamWiring;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tally on one machine, in one process: Amazon DynamoDB Local with the table, the writer API behind an
 * {@link HttpFront} that speaks API Gateway's events to the very handler deployed on AWS, and a
 * {@link LocalEventBus} that takes EventBridge's PutEvents and matches the events against the rule files.
 *
 * <p>{@code java -jar tally-local.jar} runs it from a terminal ({@link #main}); tests call {@link #start} with
 * {@link RunnerSettings#ephemeral()} and {@link #close} it.
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

    private final RunnerSettings settings;
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
    LocalRunner(RunnerSettings settings, DynamoDbLocalServer dynamoDb, int dynamoDbPort, URI dynamoDbEndpoint,
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
    public static LocalRunner start(RunnerSettings settings) {
        return RunnerStartup.start(settings);
    }

    /** The subscriber example's own table beside {@code tableName}: {@code tally-activity} for {@code tally}. */
    /** The writers' per-caller write quota table of a runner started with {@code --auth}: {@code <table>-quota}. */
    public static String quotaTableName(String tableName) {
        return tableName + "-quota";
    }

    public static String activityTableName(String tableName) {
        return tableName + io.tally.core.activity.ActivityFeed.LOCAL_SUFFIX;
    }

    /** The writer API, e.g. {@code http://127.0.0.1:8080}. */
    @Override
    public URI baseUri() {
        return front.baseUri();
    }

    @Override
    public DomainRegistry domains() {
        return settings.domains();
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
     * {@code EventBridgeClient} that publishes to it (any region; any credentials, but with {@code --auth} only the run's,
     * {@code auth/bus-credentials} in the data directory).
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
