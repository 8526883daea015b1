package io.tally.bench.model;

import io.tally.bench.model.ModelPlans.Plan;
import io.tally.core.TableDefinition;
import io.tally.core.workload.Write;
import io.tally.local.stream.TumblingWindowBatchInvoker;
import io.tally.stream.StreamWiring;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.testkit.TableWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The runs one function process serves ({@link ModelRun}): plans of one memory setting, JIT setting and repeat, so
 * that each repeat has a process (and a JIT) of its own, as each execution environment in Lambda has. The process
 * warms up once, unconfined ({@link ModelRun#WARM_UP}), on the group's table, waits until its JIT is quiet, then goes
 * under its CPU quota for good, all but its JIT's compiler threads ({@link CompilerThreads}: a function that has run a
 * while has compiled what it runs).
 * The table the warm-up leaves is kept as the group's seed; every later run starts from a copy of it, so each run
 * measures the same records from the same state as the first, without paying the warm-up again. The copy is the
 * process's own seed: the shard's lineage the engine keeps in memory is the one in the table.
 */
final class FunctionGroup {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FunctionGroup.class);
    /** A plan and its place in the model's list (its run number, from 1, names its seed). */
    record Numbered(int number, Plan plan) {
    }

    /** How long the JIT must stay idle after the warm-up, at most how long to wait for it. */
    static final Duration QUIET_JIT = Duration.ofSeconds(3);
    static final Duration QUIET_JIT_LIMIT = Duration.ofMinutes(5);

    private final ModelRun.Rig rig;
    private final DynamoDbClient admin;
    private final String table;
    private final String seedTable;

    private FunctionGroup(ModelRun.Rig rig, int group) {
        this.rig = rig;
        this.admin = rig.server().client();
        this.table = "model-" + group;
        this.seedTable = table + "-seed";
    }

    /**
     * Runs the plans (one memory and JIT setting) in one function process, handing each run's point to {@code done}
     * as it ends.
     *
     * @param group the group's number, from 1: names its table, log and CPU quota
     */
    static void run(ModelRun.Rig rig, int group, List<Numbered> plans, BiConsumer<Numbered, ModelResults.Point> done) {
        new FunctionGroup(rig, group).run(group, plans, done);
    }

    private void run(int group, List<Numbered> plans, BiConsumer<Numbered, ModelResults.Point> done) {
        ModelRun.Settings settings = rig.settings();
        Plan first = plans.get(0).plan();
        double cores = first.memory() / ModelRun.MEGABYTES_PER_VCPU;
        long period = Math.round(ModelRun.CPU_PERIOD.toNanos() / 1e3 * settings.scale());
        long seed = settings.seed() + table.hashCode();
        create(table);
        // The quota first, so that it closes after the function process has ended (a group with a process stays).
        try (CpuQuota quota = CpuQuota.create(CpuQuota.groupName(ProcessHandle.current().pid(), group),
                     cores / settings.scale(), period);
             FunctionProcess function = FunctionProcess.start(launch(first, seed))) {
            long next = warmUp(function, seed);
            if (plans.size() > 1) {
                create(seedTable);
                copy(table, seedTable);
            }
            quota.add(function.pid());
            for (int i = 0; i < plans.size(); i++) {
                if (i > 0) {
                    admin.deleteTable(request -> request.tableName(table));
                    create(table);
                    copy(seedTable, table);
                }
                done.accept(plans.get(i), measure(function, quota, plans.get(i), next, cores));
            }
        } finally {
            if (plans.size() > 1) {
                admin.deleteTable(request -> request.tableName(seedTable));
            }
            admin.deleteTable(request -> request.tableName(table));
        }
    }

    /**
     * The warm-up, before the quota: small batches, so that the code every invocation runs once passes the JIT's
     * compile thresholds too, as in a function that has run a while or was primed before its SnapStart snapshot; then,
     * for a longer warm-up, full batches as a backlog, so that the code a record runs reaches C2 too. Unconfined,
     * without throttles and with time running fast (the function's model was launched so: the modelled waits all but
     * vanish), since it is not measured: only what it leaves matters, the JIT's work and the table. Its windows end
     * with it (the shard cursor's claim released), as each measured run starts a window of its own.
     *
     * @return the sequence number of the first measured record
     */
    private long warmUp(FunctionProcess function, long seed) {
        ModelRun.Settings settings = rig.settings();
        List<Record> shard = rig.shard();
        TumblingWindowBatchInvoker invoker = invoker(function);
        Echoes echo = new Echoes(rig.delay(), ModelRun.WARM_UP_SCALE, seed);
        function.echoTo(echo);
        ModeledShard warm = new ModeledShard(mapping(ModelRun.WARM_UP_BATCH, 0, ModelRun.WARM_UP_SCALE), invoker,
                echo, seed, 1);
        warm.run(shard.subList(0, ModelRun.WARM_UP), Double.POSITIVE_INFINITY, Duration.ZERO,
                ModelRun.WARM_UP_DEADLINE);
        long next = warm.nextSequence();
        if (settings.warmUp() > ModelRun.WARM_UP) {
            ModeledShard longer = new ModeledShard(mapping(rig.esm().batchSize(), 0, ModelRun.WARM_UP_SCALE), invoker,
                    echo, seed, next);
            longer.run(shard.subList(ModelRun.WARM_UP, settings.warmUp()), Double.POSITIVE_INFINITY, Duration.ZERO,
                    ModelRun.WARM_UP_DEADLINE);
            next = longer.nextSequence();
        }
        invoker.endWindows();
        // What the JIT queued, compiled before the quota.
        boolean quiet = function.awaitQuietJit(QUIET_JIT, QUIET_JIT_LIMIT);
        LOG.info("{}: warm-up of {} records: JIT {} ms{}, GC {} ms, CPU {} ms", table, settings.warmUp(),
                function.compileMillis(), quiet ? "" : " (still compiling after " + QUIET_JIT_LIMIT + ")",
                function.gcMillis(), function.cpuNanos() / 1_000_000);
        return next;
    }

    /** One measured run, from the state the warm-up left, under the quota. */
    private ModelResults.Point measure(FunctionProcess function, CpuQuota quota, Numbered numbered, long next,
                                       double cores) {
        ModelRun.Settings settings = rig.settings();
        Plan plan = numbered.plan();
        long seed = settings.seed() + ("model-" + numbered.number()).hashCode();
        int warmUp = settings.warmUp();
        List<Record> shard = rig.shard();
        int arriving = plan.share() == 0 ? Math.min(ModelRun.BACKLOG, shard.size() - warmUp)
                : (int) Math.round(plan.share() * ModelRun.PARTITION_WRITES_PER_SEC * settings.seconds());
        // The run's scale, throttles and PutEvents quota, its counters fresh.
        function.model(settings.scale(), seed, ModelRun.PARTITION_WRITES_PER_SEC, settings.putEventsPerSecond());
        Echoes echo = new Echoes(rig.delay(), settings.scale(), seed);
        function.echoTo(echo);
        TumblingWindowBatchInvoker invoker = invoker(function);
        ModeledShard modeled = new ModeledShard(mapping(rig.esm().batchSize(), plan.window(), settings.scale()),
                invoker, echo, seed, next);
        // The JIT's compiler threads beside the quota, on the host's other core (CompilerThreads); their CPU apart.
        List<Long> compilers = CompilerThreads.of(function.pid());
        if (!quota.exempt(compilers, 0)) {
            LOG.warn("{}: the JIT's compiler threads could not be taken out of the CPU quota", table);
        }
        long compilerCpu = CompilerThreads.cpuNanos(function.pid(), compilers);
        function.status();
        long cpu = function.cpuNanos();
        long compile = function.compileMillis();
        long gc = function.gcMillis();
        ModeledShard.Outcome outcome = modeled.run(shard.subList(warmUp, warmUp + arriving),
                plan.share() == 0 ? Double.POSITIVE_INFINITY : plan.share() * ModelRun.PARTITION_WRITES_PER_SEC,
                Duration.ofSeconds(settings.seconds()), Duration.ofSeconds(plan.share() == 0 ? 120 : 30));
        int processed = Math.max(1, outcome.processed());
        double unitsPerRecord = function.counter("writeUnits") / processed;
        function.status(); // the JIT's and the collector's time, which only a status answer carries
        long compiling = CompilerThreads.cpuNanos(function.pid(), compilers) - compilerCpu;
        double cpuPerRecord = (function.cpuNanos() - cpu - compiling) / 1e6 / processed;
        LOG.info("model {}: the function's CPU {} ms (its JIT's {} ms more, {} ms of compilation), GC {} ms;"
                        + " the local services took {}% of the modelled latencies, {}% of calls late",
                numbered.number(), (function.cpuNanos() - cpu - compiling) / 1_000_000, compiling / 1_000_000,
                function.compileMillis() - compile, function.gcMillis() - gc,
                Math.round(100 * function.counter("localNanos") / Math.max(1, function.counter("drawnNanos"))),
                Math.round(100 * function.counter("lateCalls") / Math.max(1, function.counter("calls"))));
        invoker.endWindows();
        VerificationReport check = verify(shard.subList(0, warmUp + outcome.processed()));
        List<Double> freshness = outcome.freshnessMillis();
        return new ModelResults.Point(plan.group(), plan.memory(), plan.jit(), cores, plan.window(), plan.share(),
                plan.repeat(), outcome.arrived(), outcome.processed(), outcome.seconds(), outcome.recordsPerSec(),
                outcome.keptUp(), new double[] {ModelResults.percentile(freshness, 50),
                ModelResults.percentile(freshness, 99), ModelResults.percentile(freshness, 99.9),
                ModelResults.percentile(freshness, 100)}, outcome.invocations(), outcome.busySeconds(),
                unitsPerRecord, cpuPerRecord, (double) echo.seen() / processed,
                (long) function.counter("throttledWrites"), (long) function.counter("throttledPutEvents"),
                (long) function.counter("lateCalls"), (long) function.counter("calls"),
                outcome.failedInvocations(), ModelRun.exact(check), check.differences().size(),
                check.undoneCascades().size());
    }

    private TumblingWindowBatchInvoker invoker(FunctionProcess function) {
        return new TumblingWindowBatchInvoker("tally-stream-processor", rig.streamArn(), rig.esm().tumblingWindow(),
                function, Duration.ofMinutes(10), Clock.systemUTC());
    }

    private ModeledShard.Mapping mapping(int batchSize, double window, double scale) {
        return new ModeledShard.Mapping(batchSize, window, scale, rig.delay(), rig.getRecords(), rig.filter(),
                rig.shardId(), rig.streamArn());
    }

    private void create(String name) {
        create(admin, name);
    }

    /** A run's table: no stream (DynamoDB Local slows down with every record a table's stream holds). */
    static void create(DynamoDbClient admin, String name) {
        admin.createTable(TableDefinition.createTableRequest(name).toBuilder()
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
    }

    private void copy(String from, String to) {
        copy(admin, from, to);
    }

    /** Every item of one table written into another, as it is. */
    static void copy(DynamoDbClient admin, String from, String to) {
        List<Write> items = new ArrayList<>();
        admin.scanPaginator(request -> request.tableName(from).consistentRead(true))
                .items().forEach(item -> items.add(Write.put(item)));
        TableWriter.write(admin, to, items, 4);
    }

    /**
     * The oracle: the base items the processed records leave are written next to the derived ones; the rebuild
     * compares. Without a stream: the derived items carry the modelled shard's sequence numbers, so the rebuild
     * compares every derived item with the recomputation from the scan.
     */
    private VerificationReport verify(List<Record> processed) {
        TableWriter.write(admin, table, ModelRun.lastImages(processed), 4);
        return new Rebuilder(admin, null, table, rig.derivations(), 2).verify();
    }

    private FunctionProcess.Launch launch(Plan plan, long seed) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TABLE_NAME", table);
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("EVENT_BUS_NAME", rig.bus().busName());
        env.put("EVENT_SOURCE", StreamWiring.DEFAULT_EVENT_SOURCE);
        env.put("DYNAMODB_ENDPOINT", rig.server().endpoint().toString());
        env.put("EVENTBRIDGE_ENDPOINT", rig.bus().endpoint().toString());
        // More of the function's environment (e.g. DERIVED_WRITE_CONCURRENCY=32), as the template could set it.
        env.putAll(FunctionProcess.extraEnvironment());
        // The warm-up's model: time running fast, no throttles, no PutEvents quota (the measured part's come after).
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(ModelState.SCALE, Double.toString(ModelRun.WARM_UP_SCALE));
        properties.put(ModelState.SEED, Long.toString(seed));
        properties.put(ModelState.PARTITION_WRITE_UNITS, Double.toString(ModelRun.WARM_UP_WRITE_UNITS));
        // The template's own options when they make this JIT setting (they may carry more), else the setting's.
        String template = ModelPlans.javaToolOptions(rig.template());
        String options = ModelPlans.jit(template).equals(plan.jit()) ? template
                : ModelPlans.JIT_OPTIONS.get(plan.jit());
        return new FunctionProcess.Launch(options, (int) (plan.memory() * 0.85),
                Runtime.getRuntime().availableProcessors() - 1,
                env, properties, rig.settings().logs().resolve(table + ".log"));
    }
}
