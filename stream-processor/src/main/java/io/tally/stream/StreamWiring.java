package io.tally.stream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.store.SdkPriming;
import io.tally.core.metrics.EmfMetricsFlusher;
import io.tally.core.metrics.StageTag;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardParents;
import io.tally.stream.engine.StreamMetrics;
import io.tally.stream.events.EventBridgePublisher;
import io.tally.stream.events.EventPublisher;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClientBuilder;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClientBuilder;

/**
 * The production engine of the stream handlers, configured from the environment of the function:
 *
 * <ul>
 *   <li>{@code TABLE_NAME} (required): the table whose stream is read and where derived items are written;</li>
 *   <li>{@code AWS_REGION} (required; Lambda sets it);</li>
 *   <li>{@code EVENT_BUS_NAME} (required): the EventBridge bus the domain events go to;</li>
 *   <li>{@code EVENT_SOURCE} (optional, default {@value #DEFAULT_EVENT_SOURCE}): the events' source;</li>
 *   <li>{@code EVENT_PUBLISH_CONCURRENCY} (optional, 1..50, default 16): how many PutEvents calls of at most ten
 *       events the publisher has in flight at once in an invocation; 1 sends them one after another. Lower it when
 *       many busy shards share a Region's small PutEvents quota (throttled events are retried, but each throttled
 *       round costs a backoff); why 16: {@link EventBridgePublisher};</li>
 *   <li>{@code DERIVED_WRITE_CONCURRENCY} (optional, 1..64, default 16): how many derived writes the engine has in
 *       flight at once in an invocation; a shard's backlog is bound by it as much as by CPU, since each write waits
 *       for DynamoDB's answer (docs/shard-throughput.md);</li>
 *   <li>{@code DYNAMODB_ENDPOINT} (optional): a DynamoDB endpoint override, e.g. {@code http://127.0.0.1:8000}
 *       for DynamoDB Local;</li>
 *   <li>{@code EVENTBRIDGE_ENDPOINT} (optional): an EventBridge endpoint override, e.g. LocalStack's
 *       {@code http://127.0.0.1:4566} or a local PutEvents stub (the cold-start benchmark uses one);</li>
 *   <li>{@code SELECTOR_SHARDS}, {@code STATUS_SHARDS}, {@code GLOBAL_SHARDS} (optional, 1..100, default 4): as
 *       for the writer function, which must see the same values.</li>
 * </ul>
 */
public final class StreamWiring {
    static final String TABLE_NAME = "TABLE_NAME";
    static final String AWS_REGION = "AWS_REGION";
    static final String DYNAMODB_ENDPOINT = "DYNAMODB_ENDPOINT";
    static final String EVENTBRIDGE_ENDPOINT = "EVENTBRIDGE_ENDPOINT";
    static final String EVENT_BUS_NAME = "EVENT_BUS_NAME";
    static final String EVENT_SOURCE = "EVENT_SOURCE";
    static final String EVENT_PUBLISH_CONCURRENCY = "EVENT_PUBLISH_CONCURRENCY";
    static final String DERIVED_WRITE_CONCURRENCY = "DERIVED_WRITE_CONCURRENCY";
    /** The most derived writes in flight that {@code DERIVED_WRITE_CONCURRENCY} may ask for. */
    static final int MAX_WRITE_CONCURRENCY = 64;
    /** The application's one EventBridge source name, unless EVENT_SOURCE says otherwise. */
    public static final String DEFAULT_EVENT_SOURCE = "io.tally";
    /** The JDK's property for the idle HTTP connections it keeps per host. */
    static final String MAX_CONNECTIONS_PROPERTY = "http.maxConnections";
    /**
     * Idle connections kept per host: more than an invocation has in flight to one service (the engine's derived
     * writes, at most {@value #MAX_WRITE_CONCURRENCY}, and its cursor call to DynamoDB; the publisher's PutEvents calls
     * to EventBridge, at most 50).
     */
    static final int KEEP_ALIVE_CONNECTIONS = 72;

    /**
     * An engine, what the handler runs after each invocation (flushing the metrics), and the check of the delivered
     * shard id.
     */
    /**
     * @param shards     the shard counts the engine derives with, which the SnapStart priming's batch takes too
     * @param primeTable SnapStart priming of the table client's request path ({@link SdkPriming})
     */
    record Processor(Engine engine, Runnable afterInvocation, ShardIdentity identity, ShardSettings shards,
                     BooleanSupplier primeTable) {
    }

    private StreamWiring() {
    }

    /**
     * Builds the clients once per container (cold start), with the URL connection HTTP client: it starts faster
     * and weighs less than the Apache or Netty clients, and a stream handler makes few, short calls.
     */
    static Processor fromEnvironment(Map<String, String> env) {
        keepConnectionsAlive();
        String tableName = required(env, TABLE_NAME);
        Region region = Region.of(required(env, AWS_REGION));
        String eventBusName = required(env, EVENT_BUS_NAME);
        String source = env.getOrDefault(EVENT_SOURCE, DEFAULT_EVENT_SOURCE);
        int publishConcurrency = publishConcurrency(env);
        int writeConcurrency = writeConcurrency(env);

        DynamoDbClientBuilder dynamoDb = DynamoDbClient.builder()
                .region(region)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        endpoint(env, DYNAMODB_ENDPOINT).ifPresent(dynamoDb::endpointOverride);
        DynamoDbClient dynamoDbClient = dynamoDb.build();
        EventBridgeClient eventBridge = eventBridge(env, region);

        // One registry per container, flushed as CloudWatch embedded metric format on stdout after every invocation;
        // every metric carries the deployment's stage (STAGE) as a dimension.
        SimpleMeterRegistry registry = StageTag.apply(new SimpleMeterRegistry(), env);
        EmfMetricsFlusher flusher = new EmfMetricsFlusher(registry, System.out);
        EventBridgePublisher publisher = new EventBridgePublisher(eventBridge, eventBusName, source,
                publishConcurrency);
        DynamoDbStreamsClientBuilder streams = DynamoDbStreamsClient.builder()
                .region(region)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        endpoint(env, DYNAMODB_ENDPOINT).ifPresent(streams::endpointOverride);
        // The listing the shard ids are checked against also tells the engine which shards continue their parent.
        ShardIdentity identity = new ShardIdentity(streams.build(), new SharedListing(dynamoDbClient, tableName),
                Clock.systemUTC());
        DomainRegistry domains = DomainRegistry.load();
        List<String> undeclared = ShardSettings.undeclared(env, domains.shardSettings());
        if (!undeclared.isEmpty()) {
            LoggerFactory.getLogger(StreamWiring.class).warn("{} set, but no loaded domain declares {}: the shard"
                    + " settings are {}", undeclared, undeclared.size() == 1 ? "it" : "them",
                    domains.shardSettings().stream().map(ShardSetting::variable).toList());
        }
        ShardSettings shards = ShardSettings.fromEnvironment(env, domains.shardSettings());
        Engine engine = engine(domains, dynamoDbClient, tableName, publisher, registry, shards, writeConcurrency,
                identity);
        return new Processor(engine, flusher::flush, identity, shards,
                () -> SdkPriming.readNothing(dynamoDbClient, tableName));
    }

    /**
     * Lets the JDK keep {@value #KEEP_ALIVE_CONNECTIONS} idle connections per host instead of its default 5, unless
     * {@code http.maxConnections} is set (e.g. in {@code JAVA_TOOL_OPTIONS}). The SDK's URL connection client runs
     * on the JDK's HTTP client, which closes every connection beyond that number when a call ends: with 16 derived
     * writes in flight, each wave of writes would close 11 connections and open them again, a TLS handshake each on
     * AWS. The JDK reads the property once, at its first connection: call this before any client connects.
     */
    public static void keepConnectionsAlive() {
        if (System.getProperty(MAX_CONNECTIONS_PROPERTY) == null) {
            System.setProperty(MAX_CONNECTIONS_PROPERTY, Integer.toString(KEEP_ALIVE_CONNECTIONS));
        }
    }

    /** The EventBridge client, pointed at {@code EVENTBRIDGE_ENDPOINT} when it is set. */
    static EventBridgeClient eventBridge(Map<String, String> env, Region region) {
        EventBridgeClientBuilder builder = EventBridgeClient.builder()
                .region(region)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        endpoint(env, EVENTBRIDGE_ENDPOINT).ifPresent(builder::endpointOverride);
        return builder.build();
    }

    /**
     * {@code EVENT_PUBLISH_CONCURRENCY}, or {@value EventBridgePublisher#DEFAULT_CONCURRENCY} when it is not set.
     *
     * @throws IllegalStateException when it is set but not a whole number 1..50: a typo must not start a function
     *                               that publishes otherwise than configured
     */
    static int publishConcurrency(Map<String, String> env) {
        return concurrency(env, EVENT_PUBLISH_CONCURRENCY, EventBridgePublisher.DEFAULT_CONCURRENCY,
                EventBridgePublisher.MAX_CONCURRENCY);
    }

    /**
     * {@code DERIVED_WRITE_CONCURRENCY}, or {@value Engine#DEFAULT_WRITE_CONCURRENCY} when it is not set.
     *
     * @throws IllegalStateException when it is set but not a whole number 1..{@value #MAX_WRITE_CONCURRENCY}
     */
    static int writeConcurrency(Map<String, String> env) {
        return concurrency(env, DERIVED_WRITE_CONCURRENCY, Engine.DEFAULT_WRITE_CONCURRENCY, MAX_WRITE_CONCURRENCY);
    }

    private static int concurrency(Map<String, String> env, String name, int defaultValue, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        int concurrency;
        try {
            concurrency = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            concurrency = 0;
        }
        if (concurrency < 1 || concurrency > max) {
            throw new IllegalStateException("environment variable " + name + " must be a whole number 1.." + max
                    + ", not '" + value + "'");
        }
        return concurrency;
    }

    private static Optional<URI> endpoint(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(URI.create(value.trim()));
    }

    /** The engine of the domains on the class path over the given clients. */
    public static Engine engine(DynamoDbClient dynamoDb, String tableName, EventPublisher publisher,
                                MeterRegistry registry, ShardSettings shards) {
        return engine(DomainRegistry.load(), dynamoDb, tableName, publisher, registry, shards);
    }

    /** The engine of these domains over the given clients: the production wiring and the local runner share it. */
    public static Engine engine(DomainRegistry domains, DynamoDbClient dynamoDb, String tableName,
                                EventPublisher publisher, MeterRegistry registry, ShardSettings shards) {
        return engine(domains, dynamoDb, tableName, publisher, registry, shards, Engine.DEFAULT_WRITE_CONCURRENCY);
    }

    /** As the production engine, with {@code writeConcurrency} derived writes in flight (the bench tunes it). */
    public static Engine engine(DomainRegistry domains, DynamoDbClient dynamoDb, String tableName,
                                EventPublisher publisher, MeterRegistry registry, ShardSettings shards,
                                int writeConcurrency) {
        return engine(domains, dynamoDb, tableName, publisher, registry, shards, writeConcurrency, ShardParents.NONE);
    }

    /**
     * As the production engine, with {@code writeConcurrency} derived writes in flight, told by {@code parents} which
     * shards continue their parent alone (their lineage goes on writing the parent's partials of shared items).
     */
    public static Engine engine(DomainRegistry domains, DynamoDbClient dynamoDb, String tableName,
                                EventPublisher publisher, MeterRegistry registry, ShardSettings shards,
                                int writeConcurrency, ShardParents parents) {
        return Engine.builder()
                .parents(parents)
                .writeConcurrency(writeConcurrency)
                .derivations(domains.derivations(shards))
                .store(new DynamoDbDerivedStore(dynamoDb, tableName))
                .deadLetters(new DynamoDbDeadLetterSink(dynamoDb, tableName))
                .cursors(new DynamoDbShardCursors(dynamoDb, tableName))
                .cascades(CascadeRunner.overTable(dynamoDb, tableName))
                .publisher(publisher)
                .metrics(new StreamMetrics(registry))
                .build();
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }
}
