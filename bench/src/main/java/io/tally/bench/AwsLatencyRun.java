package io.tally.bench;

import io.tally.testkit.TableWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.bench.aws.ArrivingShard;
import io.tally.bench.aws.AwsLatencyInterceptor;
import io.tally.bench.aws.CallTimes;
import io.tally.bench.aws.LatencyModel;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.workload.Write;
import io.tally.local.events.EventRules;
import io.tally.local.events.LocalEventBus;
import io.tally.stream.StreamRecords;
import io.tally.stream.StreamWiring;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.events.EventBridgePublisher;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * The AWS-latency mode: one shard's records, arriving at a steady rate, processed by Tally's engine and by the naive
 * processor, events on, with every DynamoDB and EventBridge call taking as long as on AWS ({@link LatencyModel},
 * {@link AwsLatencyInterceptor}) while DynamoDB Local and the local event bus do the real work. For each processor:
 * a backlog (every record there at once: the most records a second it takes), then steady rates from a small share
 * of a partition's write limit to past it. Each run has a table of its own and ends with the oracle.
 */
final class AwsLatencyRun {
    private static final Logger LOG = LoggerFactory.getLogger(AwsLatencyRun.class);
    /**
     * The writes a second one partition takes (DynamoDB Developer Guide, "Partitions and data distribution": a
     * partition supports up to 1,000 write capacity units a second): a shard of the table's stream carries about
     * that many records a second at most, one per write of an item up to 1 KB.
     */
    static final double PARTITION_WRITES_PER_SEC = 1_000;
    /** The shares of the partition's limit each processor is run at, after a backlog (0). */
    static final List<Double> SHARES = List.of(0.0, 0.02, 0.05, 0.25, 0.5, 0.8, 1.0, 1.2);
    static final String SHARD_ID = "shardId-00000001000000000000-aws00001";
    static final String TALLY = "tally";
    static final String NAIVE = "naive";
    /** Records of each tuning run (a backlog). */
    static final int TUNING_RECORDS = 5_000;

    /**
     * How many derived writes and PutEvents calls Tally has in flight in an invocation.
     *
     * @param label what the setting is
     */
    record Setting(String label, int writes, int publishes) {
        /** The deployed function's: the engine's and the publisher's defaults. */
        static final Setting DEPLOYED = new Setting("deployed", Engine.DEFAULT_WRITE_CONCURRENCY,
                EventBridgePublisher.DEFAULT_CONCURRENCY);
        /** The naive processor: one call at a time. */
        static final Setting ONE_AT_A_TIME = new Setting("one call at a time", 1, 1);
    }

    /** The settings the tuning runs compare side by side, the deployed one first. */
    static final List<Setting> TUNING = List.of(Setting.DEPLOYED,
            new Setting("events one call at a time (before)", 8, 1),
            new Setting("8 of each (the first concurrent publisher)", 8, 8),
            new Setting("fewer writes in flight", 8, EventBridgePublisher.DEFAULT_CONCURRENCY),
            new Setting("fewer events in flight", Engine.DEFAULT_WRITE_CONCURRENCY, 8),
            new Setting("more of both", 24, 24));

    private final LocalDynamoDbServer server;
    private final DynamoDbClient admin;
    private final LocalEventBus bus;
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private final LatencyModel model = LatencyModel.aws();
    private final Duration arrivals;
    private final Duration deadline;
    private final long seed;
    private final List<String> processors;
    private final List<Double> shares;
    private final double scale;

    private AwsLatencyRun(LocalDynamoDbServer server, LocalEventBus bus, BenchOptions options) {
        this.server = server;
        this.admin = server.client();
        this.bus = bus;
        this.arrivals = Duration.ofSeconds(options.awsSeconds);
        this.deadline = arrivals;
        this.seed = options.seed;
        this.processors = options.awsProcessors;
        this.shares = options.awsShares;
        this.scale = options.awsTimeScale;
    }

    /** Runs the mode on a DynamoDB Local and an event bus of its own. */
    static AwsLatencyResults run(BenchOptions options) {
        Path events;
        try {
            events = Files.createTempDirectory("tally-bench-bus");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start();
             LocalEventBus bus = LocalEventBus.start(LocalEventBus.Settings.of("127.0.0.1", 0, events),
                     EventRules.of("bench", List.of()))) {
            return new AwsLatencyRun(server, bus, options).run();
        } catch (IOException e) {
            throw new UncheckedIOException("the local event bus did not start", e);
        }
    }

    private AwsLatencyResults run() {
        List<SourceRecord> shard = recordShard();
        // Not reported: the JIT compiles DynamoDB Local's, the SDK's and both processors' code first.
        for (String processor : processors) {
            point(processor, shard.subList(0, processor.equals(TALLY) ? 2_000 : 200), 0, "warm-up", setting(processor));
        }
        List<AwsLatencyResults.Point> points = new ArrayList<>();
        for (String processor : processors) {
            for (double share : shares) {
                // A backlog of 10,000 records, and the naive processor's of far fewer.
                List<SourceRecord> records = share > 0 ? shard
                        : shard.subList(0, Math.min(shard.size(), processor.equals(TALLY) ? 10_000 : 500));
                points.add(point(processor, records, share,
                        share == 0 ? "backlog" : Long.toString(Math.round(share * 100)), setting(processor)));
            }
        }
        List<AwsLatencyResults.Point> tuning = new ArrayList<>();
        if (processors.contains(TALLY)) {
            for (int i = 0; i < TUNING.size(); i++) {
                tuning.add(point(TALLY, shard.subList(0, TUNING_RECORDS), 0, "tuning-" + i, TUNING.get(i)));
            }
        }
        return new AwsLatencyResults(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                model.operations(), Bench.BATCH_SIZE, PARTITION_WRITES_PER_SEC, arrivals.toSeconds(),
                ArrivingShard.IDLE_POLL_INTERVAL.toMillis(), scale, points, tuning);
    }

    /**
     * The records of one shard: a skewed mix of every domain's writes, recorded in a table and read back from its
     * stream, then given one shard's id and consecutive sequence numbers. The order within each recorded shard (every
     * change of an item) is kept.
     */
    private List<SourceRecord> recordShard() {
        double most = shares.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        int needed = Math.max(10_000, (int) Math.ceil(PARTITION_WRITES_PER_SEC * most * arrivals.toSeconds()));
        String recording = "rec-aws";
        admin.createTable(TableDefinition.createTableRequest(recording));
        // Deletes and rewrites leave fewer records than writes: 10% more writes than records needed.
        TableWriter.write(admin, recording, Workload.writes(seed, 1.1, needed + needed / 10), Bench.WRITER_THREADS);
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(server.streamsClient(), recording,
                StreamRecords::fromSdk);
        List<SourceRecord> shard = new ArrayList<>();
        for (List<SourceRecord> records : stream.values()) {
            for (SourceRecord record : records) {
                shard.add(new SourceRecord(record.eventId(), record.eventName(), SHARD_ID,
                        "1" + String.format("%020d", shard.size()), record.approximateCreationTime(), record.keys(),
                        record.oldImage(), record.newImage()));
            }
        }
        LOG.info("aws latency: {} records of {} recorded shards as one shard", shard.size(), stream.size());
        if (shard.size() < needed) {
            throw new IllegalStateException("the recording gave " + shard.size() + " records, " + needed + " needed");
        }
        return shard;
    }

    /** One run: a backlog when {@code share} is 0, else records arriving at that share of the partition's limit. */
    private static Setting setting(String processor) {
        return processor.equals(TALLY) ? Setting.DEPLOYED : Setting.ONE_AT_A_TIME;
    }

    private AwsLatencyResults.Point point(String processor, List<SourceRecord> records, double share, String run,
                                          Setting setting) {
        String table = "aws-" + processor + "-" + run;
        admin.createTable(TableDefinition.createTableRequest(table).toBuilder()
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
        CallTimes times = new CallTimes();
        AwsLatencyInterceptor latency = new AwsLatencyInterceptor(model, times, seed + table.hashCode(), scale);
        double rate = share == 0 ? Double.POSITIVE_INFINITY : share * PARTITION_WRITES_PER_SEC;
        LatencyModel.Operation getRecords = model.of("DynamoDB Streams", "GetRecords");
        java.util.random.RandomGenerator pollRandom = new java.util.Random(seed);
        try (DynamoDbClient client = server.client(latency);
             EventBridgeClient eventBridge = eventBridge(latency);
             Processing processing = processing(processor, client, table, setting.writes(),
                     new EventBridgePublisher(eventBridge, bus.busName(), StreamWiring.DEFAULT_EVENT_SOURCE,
                             setting.publishes()))) {
            CallTimes.Snapshot before = times.snapshot(System.nanoTime());
            ArrivingShard.Outcome outcome = ArrivingShard.run(records, rate, Bench.BATCH_SIZE, arrivals,
                    share == 0 ? Duration.ofSeconds(60) : deadline, slowed(processing.process(), times),
                    () -> AwsLatencyInterceptor.pause(Math.round(getRecords.drawNanos(pollRandom) * scale)), scale);
            CallTimes.Snapshot used = times.snapshot(System.nanoTime()).minus(before);
            VerificationReport check = verify(table, records.subList(0, outcome.processed()));
            AwsLatencyResults.Point point = AwsLatencyResults.Point.of(processor, setting, share, outcome, used,
                    scale, check.isExact(), check.differences().size());
            LOG.info("aws latency: {} ({}) at {}: {} of {} records, {} records/s, freshness p50 {} ms p99 {} ms, kept up {},"
                    + " exact {}", processor, setting.label(), share == 0 ? "backlog" : Report.fmt(rate, 0) + "/s", outcome.processed(),
                    outcome.arrived(), Report.fmt(outcome.recordsPerSec(), 0), Report.fmt(point.freshnessP50Millis(), 0),
                    Report.fmt(point.freshnessP99Millis(), 0), outcome.keptUp(), check.isExact());
            return point;
        }
    }

    /**
     * The processor with its own work (the time of an invocation with no call in flight) made {@code scale} times as
     * long, by a pause after the invocation, as the interceptor makes every call: the whole invocation then runs
     * {@code scale} times slower than it would at the model's latencies.
     */
    private Consumer<List<SourceRecord>> slowed(Consumer<List<SourceRecord>> process, CallTimes times) {
        if (scale == 1) {
            return process;
        }
        return batch -> {
            long started = System.nanoTime();
            double calls = times.snapshot(started).serviceMillis(CallTimes.ANY);
            process.accept(batch);
            long ended = System.nanoTime();
            long callNanos = Math.round((times.snapshot(ended).serviceMillis(CallTimes.ANY) - calls) * 1e6);
            long own = ended - started - callNanos;
            if (own > 0) {
                AwsLatencyInterceptor.pause(Math.round(own * (scale - 1)));
            }
        };
    }

    private record Processing(Consumer<List<SourceRecord>> process, Runnable closing) implements AutoCloseable {
        @Override
        public void close() {
            closing.run();
        }
    }

    private Processing processing(String processor, DynamoDbClient client, String table, int writes,
                                  EventPublisher publisher) {
        if (processor.equals(TALLY)) {
            Engine engine = StreamWiring.engine(DomainRegistry.load(), client, table, publisher,
                    new SimpleMeterRegistry(), ShardSettings.DEFAULTS, writes);
            return new Processing(batch -> ReplayRun.processWithRetries(engine, batch), engine::close);
        }
        NaiveProcessor naive = new NaiveProcessor(client, table, derivations, publisher);
        return new Processing(naive::process, () -> { });
    }

    private EventBridgeClient eventBridge(AwsLatencyInterceptor latency) {
        return EventBridgeClient.builder()
                .endpointOverride(bus.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(config -> config.addExecutionInterceptor(latency))
                .build();
    }

    /**
     * The oracle over the processed records: the base items they leave (each key's last image) are written next to
     * the derived ones, and the rebuild compares.
     */
    private VerificationReport verify(String table, List<SourceRecord> processed) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> base = new LinkedHashMap<>();
        for (SourceRecord record : processed) {
            if (record.newImage() == null) {
                base.remove(record.keys());
            } else {
                base.put(record.keys(), record.newImage());
            }
        }
        TableWriter.write(admin, table, base.values().stream().map(Write::put).toList(), Bench.WRITER_THREADS);
        return new Rebuilder(admin, server.streamsClient(), table, derivations, 2).verify();
    }
}
