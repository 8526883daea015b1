package io.tally.local;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tally.local.maintenance.DeadLetterQueries;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.StreamShards;
import io.tally.core.domain.DomainRegistry;
import io.tally.local.stream.CheckpointStore;
import io.tally.local.stream.EsmSettings;
import io.tally.local.stream.FileCheckpointStore;
import io.tally.local.stream.InMemoryCheckpointStore;
import io.tally.local.stream.JsonLinesFailureDestination;
import io.tally.local.stream.PollerSnapshot;
import io.tally.local.stream.StreamPoller;
import io.tally.local.stream.TumblingWindowBatchInvoker;
import io.tally.stream.StreamWiring;
import io.tally.stream.WindowedStreamHandler;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardParents;
import io.tally.stream.events.EventBridgePublisher;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * The stream processor of the deployment, run locally: the same {@link WindowedStreamHandler} and engine
 * ({@link StreamWiring#engine}) as the Lambda function, invoked by a {@link StreamPoller} with the event source
 * mapping's settings ({@link EsmSettings#defaults()}, tumbling window included), publishing to the local event bus
 * and recording its meters in a Prometheus registry that {@code GET /metrics} serves.
 *
 * <p>With a data directory, the poller's checkpoints ({@value FileCheckpointStore#FILE_NAME}) and its on-failure
 * destination ({@value JsonLinesFailureDestination#FILE_NAME}) live there, so a restart resumes where the previous
 * run stopped; in memory, checkpoints live as long as the process and failures go to a temporary directory.
 */
final class StreamPipeline implements AutoCloseable {
    /** The system property that shortens the local stream function's timeout (see {@link #invocationTimeout}). */
    static final String TIMEOUT_PROPERTY = "tally.local.streamFunctionTimeout";
    /** The stream function's name, as in the deployment. */
    static final String FUNCTION = "tally-stream";
    private static final Logger LOG = LoggerFactory.getLogger(StreamPipeline.class);

    private final DynamoDbClient dynamoDb;
    private final DynamoDbStreamsClient streams;
    private final EventBridgeClient eventBridge;
    private final PrometheusMeterRegistry registry;
    private final StreamPoller poller;
    private final CheckpointStore checkpoints;
    private final JsonLinesFailureDestination failures;
    private final Path temporaryDir;

    private StreamPipeline(DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, EventBridgeClient eventBridge,
            PrometheusMeterRegistry registry, StreamPoller poller, CheckpointStore checkpoints,
            JsonLinesFailureDestination failures, Path temporaryDir) {
        this.dynamoDb = dynamoDb;
        this.streams = streams;
        this.eventBridge = eventBridge;
        this.registry = registry;
        this.poller = poller;
        this.checkpoints = checkpoints;
        this.failures = failures;
        this.temporaryDir = temporaryDir;
    }

    /**
     * Builds the clients, the engine, the handler and the poller; nothing is polled before {@link #start()}.
     *
     * @param dataDir where checkpoints and failures are kept; null: in memory and a temporary directory
     */
    /**
     * How long an invocation may run, what {@code Context.getRemainingTimeInMillis} counts down from and so how long
     * the shard cursor's lease of a killed runner's invocation holds: a minute, or the ISO-8601 duration of the system
     * property {@value #TIMEOUT_PROPERTY} (a test that kills runners waits that long for the lease to lapse).
     */
    static java.time.Duration invocationTimeout() {
        String value = System.getProperty(TIMEOUT_PROPERTY);
        if (value == null || value.isBlank()) {
            return io.tally.local.stream.LambdaBatchInvoker.DEFAULT_TIMEOUT;
        }
        try {
            return java.time.Duration.parse(value.trim());
        } catch (java.time.format.DateTimeParseException e) {
            throw new StartupException("system property " + TIMEOUT_PROPERTY + " is not an ISO-8601 duration such as "
                    + "PT10S: " + value, e);
        }
    }

    static StreamPipeline create(DomainRegistry domains, URI dynamoDbEndpoint, String tableName, URI eventsEndpoint,
            String busName, Path dataDir) {
        return create(domains, dynamoDbEndpoint, tableName, eventsEndpoint, busName, dataDir, null);
    }

    /**
     * As {@link #create(DomainRegistry, URI, String, URI, String, Path)}, publishing with {@code busCredentials} (the
     * bus's callers', under {@code --auth}), or null for the bus that takes any caller.
     */
    static StreamPipeline create(DomainRegistry domains, URI dynamoDbEndpoint, String tableName, URI eventsEndpoint,
            String busName, Path dataDir, AwsBasicCredentials busCredentials) {
        Path temporaryDir = null;
        DynamoDbClient dynamoDb = null;
        DynamoDbStreamsClient streams = null;
        EventBridgeClient eventBridge = null;
        try {
            StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
                    // DynamoDB Local rejects access key ids other than letters and digits; the bus's are its own.
                    AwsBasicCredentials.create("local", "local"));
            dynamoDb = DynamoDbClient.builder()
                    .endpointOverride(dynamoDbEndpoint)
                    .region(Region.US_EAST_1)
                    .credentialsProvider(credentials)
                    .httpClient(UrlConnectionHttpClient.create())
                    .build();
            streams = DynamoDbStreamsClient.builder()
                    .endpointOverride(dynamoDbEndpoint)
                    .region(Region.US_EAST_1)
                    .credentialsProvider(credentials)
                    .httpClient(UrlConnectionHttpClient.create())
                    .build();
            eventBridge = EventBridgeClient.builder()
                    .endpointOverride(eventsEndpoint)
                    .region(Region.US_EAST_1)
                    .credentialsProvider(busCredentials == null ? credentials
                            : StaticCredentialsProvider.create(busCredentials))
                    .httpClient(UrlConnectionHttpClient.create())
                    .build();
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            String streamArn = StreamPoller.latestStreamArn(dynamoDb, tableName);
            // As on AWS, a shard that continues its parent alone goes on writing the parent's partials: the stream's
            // listing tells, asked once for each shard the engine meets.
            DynamoDbStreamsClient listing = streams;
            ShardParents parents = shardId -> ShardParents.of(StreamShards.listed(listing, streamArn))
                    .soleParent(shardId);
            Engine engine = StreamWiring.engine(domains, dynamoDb, tableName,
                    new EventBridgePublisher(eventBridge, busName, LocalRunner.EVENT_SOURCE), registry,
                    ShardSettings.DEFAULTS, Engine.DEFAULT_WRITE_CONCURRENCY, parents);
            WindowedStreamHandler handler = new WindowedStreamHandler(engine, () -> { });

            EsmSettings settings = EsmSettings.defaults();
            CheckpointStore checkpoints;
            JsonLinesFailureDestination failures;
            if (dataDir != null) {
                checkpoints = FileCheckpointStore.inDirectory(dataDir);
                failures = JsonLinesFailureDestination.inDirectory(dataDir);
            } else {
                checkpoints = new InMemoryCheckpointStore();
                temporaryDir = Files.createTempDirectory("tally-stream-");
                failures = JsonLinesFailureDestination.inDirectory(temporaryDir);
            }
            StreamPoller poller = StreamPoller.builder()
                    .streamsClient(streams)
                    .streamArn(streamArn)
                    .invoker(new TumblingWindowBatchInvoker(FUNCTION, streamArn, settings.tumblingWindow(), handler,
                            invocationTimeout(), java.time.Clock.systemUTC()))
                    .failureDestination(failures)
                    .settings(settings)
                    .checkpointStore(checkpoints)
                    .functionName(FUNCTION)
                    .build();
            registerPollerGauges(registry, poller);
            DeadLetterGauge.register(registry, new DeadLetterQueries(dynamoDb, tableName, Clock.systemUTC()));
            return new StreamPipeline(dynamoDb, streams, eventBridge, registry, poller, checkpoints, failures,
                    temporaryDir);
        } catch (IOException e) {
            closeAll(dynamoDb, streams, eventBridge);
            throw new StartupException("cannot create a temporary directory for the stream's failure file: " + e, e);
        } catch (RuntimeException | Error e) {
            closeAll(dynamoDb, streams, eventBridge);
            removeQuietly(temporaryDir);
            throw e;
        }
    }

    /** The poller's own figures, read from a fresh snapshot whenever the registry is scraped. */
    private static void registerPollerGauges(MeterRegistry registry, StreamPoller poller) {
        gauge(registry, "tally.poller.invocations", "invocations of the stream function, retries included",
                poller, p -> p.snapshot().invocations());
        gauge(registry, "tally.poller.records.delivered", "records handed to the stream function (retries count again)",
                poller, p -> p.snapshot().recordsDelivered());
        gauge(registry, "tally.poller.records.processed", "records the stream function processed successfully",
                poller, p -> p.snapshot().recordsProcessed());
        gauge(registry, "tally.poller.retries", "invocations that retried records after a failure",
                poller, p -> p.snapshot().retries());
        gauge(registry, "tally.poller.batches.discarded", "batches sent to the on-failure destination",
                poller, p -> p.snapshot().batchesDiscarded());
        gauge(registry, "tally.poller.records.discarded", "records sent to the on-failure destination",
                poller, p -> p.snapshot().recordsDiscarded());
        gauge(registry, "tally.poller.records.filtered", "records the event source mapping's filter passed over",
                poller, p -> p.snapshot().recordsFiltered());
        gauge(registry, "tally.poller.shards", "shards known to the poller",
                poller, p -> p.snapshot().shards().size());
        gauge(registry, "tally.poller.lag.seconds", "the largest lag of a shard's worker (zero when caught up)",
                poller, p -> maxLag(p.snapshot()).toMillis() / 1000.0);
    }

    private static void gauge(MeterRegistry registry, String name, String description, StreamPoller poller,
            ToDoubleFunction<StreamPoller> value) {
        Gauge.builder(name, poller, value).description(description).register(registry);
    }

    static Duration maxLag(PollerSnapshot snapshot) {
        return snapshot.shards().stream().map(PollerSnapshot.ShardProgress::lag)
                .max(Duration::compareTo).orElse(Duration.ZERO);
    }

    void start() {
        poller.start();
    }

    /** Waits until every record in the stream now is processed (or discarded). */
    void awaitDrained(Duration timeout) throws InterruptedException, TimeoutException {
        poller.awaitDrained(timeout);
    }

    PollerSnapshot snapshot() {
        return poller.snapshot();
    }

    String streamArn() {
        return poller.streamArn();
    }

    /** The meters in Prometheus's text exposition format (0.0.4). */
    String scrape() {
        return registry.scrape();
    }

    MeterRegistry registry() {
        return registry;
    }

    String checkpointsDescription() {
        return checkpoints instanceof FileCheckpointStore file ? file.file().toString()
                : "in memory (a restart reads the stream from its oldest record)";
    }

    Path failureFile() {
        return failures.file();
    }

    boolean failuresTemporary() {
        return temporaryDir != null;
    }

    /** The event source mapping settings the poller runs with (the deployment template's). */
    EsmSettings settings() {
        return poller.settings();
    }

    /** Stops polling (invocations in flight finish), then closes the clients. Idempotent. */
    @Override
    public void close() {
        try {
            poller.close();
        } finally {
            closeAll(dynamoDb, streams, eventBridge);
            registry.close();
            if (temporaryDir != null) {
                try {
                    if (Files.exists(failures.file()) && Files.size(failures.file()) > 0) {
                        // The only record of discarded batches: keep it, and say where it is.
                        LOG.warn("the stream discarded batches; see {}", failures.file());
                    } else {
                        removeQuietly(temporaryDir);
                    }
                } catch (IOException e) {
                    LOG.debug("cannot inspect {}", failures.file(), e);
                }
            }
        }
    }

    private static void closeAll(AutoCloseable... closeables) {
        for (AutoCloseable closeable : closeables) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.debug("closing {} failed", closeable, e);
            }
        }
    }

    private static void removeQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("cannot remove {}", dir, e);
        }
    }
}
