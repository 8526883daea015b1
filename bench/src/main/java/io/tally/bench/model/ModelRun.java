package io.tally.bench.model;

import io.tally.testkit.TableWriter;
import io.tally.bench.aws.LatencyModel;
import io.tally.bench.model.ModelPlans.Plan;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.template.DeploymentTemplate;
import io.tally.core.workload.Write;
import io.tally.local.events.EventRules;
import io.tally.local.events.LocalEventBus;
import io.tally.local.stream.EsmSettings;
import io.tally.local.stream.StreamRecordFilter;
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
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The CPU-confined model: the deployed stream processor function ({@code WindowedStreamHandler}) in a process of its
 * own with the share of one core its memory setting buys ({@link FunctionProcess}, {@link CpuQuota}), the template's
 * JIT flags, every AWS call at a heavy-tailed latency with throttling and a PutEvents quota ({@link ModelInterceptor}),
 * fed by a model of the stream and its event source mapping with the stream's own delay and the echo of the
 * function's writes ({@link ModeledShard}), while DynamoDB Local and a local event bus do the work. Time runs
 * {@code scale} times slower; every figure is the model's. Each memory setting, JIT setting and repeat has a function
 * process of its own ({@link FunctionGroup}), which warms up before its quota (not reported: the JIT's;
 * {@link Settings#warmUp}; fast, without throttles, its waits all but gone, since only what it leaves counts); each
 * run starts from a copy of the table the warm-up left and ends with the oracle.
 */
public final class ModelRun {
    private static final Logger LOG = LoggerFactory.getLogger(ModelRun.class);
    /** A partition's write limit (DynamoDB Developer Guide, "Partitions and data distribution"). */
    static final double PARTITION_WRITES_PER_SEC = 1_000;
    /** Lambda's vCPU for a function: one at 1,769 MB, in proportion below (Lambda Developer Guide, "memory"). */
    static final double MEGABYTES_PER_VCPU = 1_769;
    /** Records of a backlog run (all there at the start). */
    static final int BACKLOG = 4_000;
    /** The least warm-up: records each run starts with in small batches, before the quota, unreported. */
    public static final int WARM_UP = 2_000;
    /**
     * The default warm-up: enough records in full batches after the small ones that C2 has compiled what a record
     * runs (about 18 full batches), so that a run with full tiering measures its steady state, as in a function that
     * has run a while.
     */
    public static final int STEADY_WARM_UP = 20_000;
    /**
     * The warm-up's batch size: {@value #WARM_UP} records in 400 invocations, past the 200 invocations after which
     * C1 compiles a method (HotSpot's {@code Tier3InvocationThreshold}); the rest of a longer warm-up comes in full
     * batches.
     */
    static final int WARM_UP_BATCH = 5;
    /**
     * The warm-up's time scale: its time runs a hundred times faster than real time, so that its modelled waits (the
     * calls' latencies, the stream's delay, the polls) all but vanish and DynamoDB Local alone sets its pace.
     */
    static final double WARM_UP_SCALE = 0.01;
    /** A partition's write units a second in the warm-up: none throttled, since its time runs fast. */
    static final double WARM_UP_WRITE_UNITS = 1e12;
    /** How long the warm-up may take, in its (fast) time: 30 real minutes. */
    static final Duration WARM_UP_DEADLINE = Duration.ofSeconds(Math.round(30 * 60 / WARM_UP_SCALE));
    /** The CFS period of the quota, in the model's time. */
    static final Duration CPU_PERIOD = Duration.ofMillis(20);
    /** The share of a partition whose write units the targets hold against the floor. */
    static final double FLOOR_SHARE = 0.5;

    /**
     * What the mode is given.
     *
     * @param seconds            how long records arrive at a steady rate
     * @param putEventsPerSecond the PutEvents calls a second the shard's function may make
     * @param warmUp             records each run's function processes before its quota, unreported: the first
     *                           {@value #WARM_UP} in batches of {@value #WARM_UP_BATCH}, the rest in full batches (a
     *                           function that has run a while, or was primed before its SnapStart snapshot)
     * @param floor              the write-unit floor of records replayed in full batches, or null for none (the
     *                           floor's replay is the bench's, which this package does not depend on)
     */
    public record Settings(double scale, long seed, int seconds, List<Plan> plans, double putEventsPerSecond,
                           int warmUp, Path logs, FloorOf floor) {
        public Settings {
            if (warmUp < WARM_UP) {
                throw new IllegalArgumentException("the warm-up is at least " + WARM_UP + " records: " + warmUp);
            }
        }
    }

    /**
     * The least write units a record any processor must spend, over records replayed in batches of a size: the records
     * after the first {@code skip}, from the state those leave.
     */
    @FunctionalInterface
    public interface FloorOf {
        double unitsPerRecord(LocalDynamoDbServer server, List<Record> records, int batchSize, int skip);
    }

    /** What every run of the model shares: its settings, servers, the mapping's settings and the recorded shard. */
    record Rig(Settings settings, LocalDynamoDbServer server, LocalEventBus bus, DeploymentTemplate template,
               EsmSettings esm, Derivations derivations, LatencyModel.Operation getRecords, StreamDelay delay,
               StreamRecordFilter filter, List<Record> shard, String streamArn, String shardId) {
    }

    private final Settings settings;
    private final LocalDynamoDbServer server;
    private final DynamoDbClient admin;
    private final LocalEventBus bus;
    private final DeploymentTemplate template = DeploymentTemplate.bundled();
    private final EsmSettings esm = EsmSettings.fromTemplate(template);
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private final LatencyModel.Operation getRecords =
            LatencyModel.awsHeavyTailed().of("DynamoDB Streams", "GetRecords");
    private final StreamDelay delay = StreamDelay.calibrated(ModeledShard.IDLE_POLL_INTERVAL.toMillis(), getRecords);
    private final StreamRecordFilter filter = StreamRecordFilter.of(esm.filterPatterns());

    private ModelRun(Settings settings, LocalDynamoDbServer server, LocalEventBus bus) {
        this.settings = settings;
        this.server = server;
        this.admin = server.client();
        this.bus = bus;
    }

    /** Runs every plan on a DynamoDB Local and an event bus of its own. */
    public static ModelResults run(Settings settings) {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start();
             LocalEventBus bus = LocalEventBus.start(LocalEventBus.Settings.of("127.0.0.1", 0,
                     Files.createTempDirectory("tally-model-bus")), EventRules.of("bench", List.of()))) {
            return new ModelRun(settings, server, bus).run();
        } catch (IOException e) {
            throw new UncheckedIOException("the local event bus did not start", e);
        }
    }

    private ModelResults run() {
        double most = settings.plans().stream().mapToDouble(Plan::share).max().orElse(0);
        int needed = settings.warmUp()
                + Math.max(10_000, (int) Math.ceil(PARTITION_WRITES_PER_SEC * most * settings.seconds()));
        List<Record> shard = recordShard(needed);
        // The function's events name the recording's stream and its first shard, which its shard check finds listed.
        String streamArn = StreamReader.streamArn(server.streamsClient(), RECORDING);
        String shardId = StreamReader.shards(server.streamsClient(), streamArn).get(0).shardId();
        Rig rig = new Rig(settings, server, bus, template, esm, derivations, getRecords, delay, filter, shard,
                streamArn, shardId);
        // One function process per memory setting, JIT setting and repeat, its plans in the order given.
        Map<List<Object>, List<FunctionGroup.Numbered>> groups = new LinkedHashMap<>();
        List<Plan> plans = settings.plans();
        for (int i = 0; i < plans.size(); i++) {
            Plan plan = plans.get(i);
            groups.computeIfAbsent(List.of(plan.memory(), plan.jit(), plan.repeat()), key -> new ArrayList<>())
                    .add(new FunctionGroup.Numbered(i + 1, plan));
        }
        ModelResults.Point[] points = new ModelResults.Point[plans.size()];
        int group = 0;
        for (List<FunctionGroup.Numbered> numbered : groups.values()) {
            FunctionGroup.run(rig, ++group, numbered, (run, point) -> {
                points[run.number() - 1] = point;
                log(run, point);
            });
        }
        double[][] fit = delay.fit(ModeledShard.IDLE_POLL_INTERVAL.toMillis(), getRecords);
        ModelResults.Floor floor = floor(shard);
        return new ModelResults(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                LatencyModel.awsHeavyTailed().operations(), new double[] {delay.p50Millis(), delay.p99Millis()}, fit,
                esm.batchSize(), ModelPlans.javaToolOptions(template), ModelPlans.defaultMemory(template),
                settings.scale(),
                settings.putEventsPerSecond(), settings.warmUp(), floor,
                List.of(points));
    }

    private void log(FunctionGroup.Numbered run, ModelResults.Point point) {
        Plan plan = run.plan();
        LOG.info("model {}/{}: {} {} MB {} window {} s at {}: {} of {} records, {} records/s, freshness p50 {} ms"
                        + " p99 {} ms p99.9 {} ms, {} write units and {} ms CPU a record, exact {}", run.number(),
                settings.plans().size(), plan.group(), plan.memory(), plan.jit(), plan.window(),
                plan.share() == 0 ? "backlog" : Math.round(plan.share() * 100) + "%", point.processed(),
                point.arrived(), Math.round(point.recordsPerSec()), Math.round(point.freshness()[0]),
                Math.round(point.freshness()[1]), Math.round(point.freshness()[2]),
                String.format("%.2f", point.writeUnitsPerRecord()),
                String.format("%.3f", point.cpuMillisPerRecord()), point.exact());
    }

    /**
     * The floor the targets measure against: the records a run at {@value #FLOOR_SHARE} of a partition measures
     * (after its warm-up's, which are applied first), replayed in full batches of the mapping's {@code BatchSize}, as
     * a backlog would bring them.
     */
    private ModelResults.Floor floor(List<Record> shard) {
        boolean planned = settings.plans().stream()
                .anyMatch(plan -> plan.group().equals("rates") && plan.share() == FLOOR_SHARE);
        if (settings.floor() == null || !planned) {
            return null; // no run for the target to compare with it
        }
        int records = Math.min(shard.size(),
                settings.warmUp() + (int) Math.round(FLOOR_SHARE * PARTITION_WRITES_PER_SEC * settings.seconds()));
        int measured = records - settings.warmUp();
        double units = settings.floor().unitsPerRecord(server, shard.subList(0, records), esm.batchSize(),
                settings.warmUp());
        LOG.info("model: the floor of {} records (after {}) in batches of {}: {} write units a record", measured,
                settings.warmUp(), esm.batchSize(), String.format("%.3f", units));
        return new ModelResults.Floor(measured, esm.batchSize(), units);
    }

    static final String RECORDING = "model-rec";
    /**
     * One shard's records: a skewed mix of every domain's writes (the parts only asked for too), recorded in a table
     * and read back from its stream, its shards one after the other, each in its order.
     */
    private List<Record> recordShard(int needed) {
        String recording = RECORDING;
        admin.createTable(TableDefinition.createTableRequest(recording));
        TableWriter.write(admin, recording,
                Workload.writesOfEveryDomain(settings.seed(), 1.1, needed + needed / 10), 4);
        Map<String, List<Record>> stream = new TreeMap<>(StreamReader.readAll(server.streamsClient(), recording,
                (shardId, record) -> record));
        List<Record> shard = new ArrayList<>();
        stream.values().forEach(shard::addAll);
        LOG.info("model: {} records of {} recorded shards as one shard", shard.size(), stream.size());
        if (shard.size() < needed) {
            throw new IllegalStateException("the recording gave " + shard.size() + " records, " + needed + " needed");
        }
        return shard;
    }

    /**
     * Whether the derived data equals the recomputation. Cascades the oracle finds undone do not count against it:
     * the recording was written without a stream processor, so the base items its records leave still hold what a
     * cascade would have removed (a deleted team's memberships), and the function's cascade, run against a table
     * without those items, removed nothing. They are reported apart.
     */
    static boolean exact(VerificationReport check) {
        return check.differences().isEmpty() && check.behindItems() == 0;
    }

    /** The base items records leave: each key's last new image, none for a key whose last record removed it. */
    static List<Write> lastImages(List<Record> records) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> base = new LinkedHashMap<>();
        for (Record record : records) {
            if (record.dynamodb().hasNewImage()) {
                base.put(record.dynamodb().keys(), record.dynamodb().newImage());
            } else {
                base.remove(record.dynamodb().keys());
            }
        }
        return base.values().stream().map(Write::put).toList();
    }
}
