package io.tally.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.template.DeploymentTemplate;
import io.tally.stream.StreamDomains;
import io.tally.stream.StreamRecords;
import io.tally.stream.StreamWiring;
import io.tally.stream.derive.Derivations;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Difference;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import io.tally.testkit.Write;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The benchmark: Tally's engine against a naive per-record processor on the same recorded stream, then the
 * end-to-end freshness lag at a steady write rate. Writes BENCHMARKS.md and a JSON copy of the figures.
 */
public final class Bench {
    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);
    static final String COMMAND = "mvn -q -pl bench -am package -DskipTests && java -Xmx1g -jar bench/target/tally-bench.jar --records 20000";
    /** The deployment's batch size: the stream event's BatchSize in infra/template.yaml. */
    static final int BATCH_SIZE = DeploymentTemplate.bundled().streamEventSourceMapping().integer("BatchSize");
    static final int WRITER_THREADS = 4;
    /** The hot-song workload's Zipf skew over songs: the first two songs take about half of all downloads. */
    static final double HOT_SONG_SKEW = 1.3;
    /** The tag-heavy workload's Zipf skew over each user's tags, as the zipf workload's over users and posts. */
    static final double TAG_SKEW = 1.1;

    private final LocalDynamoDbServer server;
    private final DynamoDbClient admin;
    private final Derivations derivations = StreamDomains.derivations(ShardSettings.DEFAULTS);

    private Bench(LocalDynamoDbServer server) {
        this.server = server;
        this.admin = server.client();
    }

    public static void main(String[] args) throws IOException {
        BenchOptions options = BenchOptions.parse(args);
        if (options.render != null) {
            // Renders the page again from a run's figures, e.g. after a change of the page's text.
            Results results = new ObjectMapper().readValue(options.render.toFile(), Results.class);
            Files.writeString(options.markdown, Report.markdown(results, readColdStart(options.coldStartJson)));
            return;
        }
        if (options.coldStart) {
            coldStart(options);
            return;
        }
        if (options.load) {
            AloneModes.load(options);
            return;
        }
        if (options.writer) {
            AloneModes.writer(options);
            return;
        }
        // A fresh server per phase: DynamoDB Local looks up the stream on every write to a stream-enabled table
        // at a cost that grows with the stream records already in the database, so a phase run after another
        // would inherit the earlier phases' streams and slow down for that reason alone.
        if (options.warmUpRecords > 0) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                new Bench(server).warmUp(options);
            }
        }
        List<Results.WorkloadResult> workloads = new ArrayList<>();
        if (options.workloads.contains("uniform")) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                workloads.add(new Bench(server).workload("uniform", 0.0, options));
            }
        }
        if (options.workloads.contains("zipf")) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                workloads.add(new Bench(server).workload("zipf", 1.1, options));
            }
        }
        if (options.workloads.contains("hot-song")) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                // Song downloads alone, most of them on a few hot songs: the hot keys coalescing is for.
                workloads.add(new Bench(server).workload("hot-song", HOT_SONG_SKEW,
                        Workload.songWrites(options.seed, HOT_SONG_SKEW, options.records)));
            }
        }
        if (options.workloads.contains("tag-heavy")) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                // Favourites alone, mostly links to a few hot tags of two users: per-tag counters in two stats items.
                workloads.add(new Bench(server).workload("tag-heavy", TAG_SKEW,
                        Workload.favouriteWrites(options.seed, TAG_SKEW, options.records)));
            }
        }
        Results.Freshness freshness = null;
        if (options.freshnessSeconds > 0) {
            try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
                freshness = new Bench(server).freshness(options);
            }
        }
        Results.Load load = null;
        if (options.loadSeconds > 0) {
            // Last: the runner starts its own DynamoDB Local, in memory, with nothing of the phases before.
            load = new LoadRun(options.loadConnections, Duration.ofSeconds(options.loadSeconds), options.seed).run();
        }
        Results.Writer writer = null;
        if (options.writerRequests > 0) {
            writer = new WriterRun(options.writerThreads, options.writerRequests, options.writerRounds).run();
        }
        {
            Results results = new Results(environment(options), workloads, freshness, load, writer);

            // The cold-start section comes from its own run (--cold-start) and stays on the page.
            String markdown = Report.markdown(results, readColdStart(options.coldStartJson));
            Files.writeString(options.markdown, markdown);
            writeJson(options.json, results);
            System.out.println(markdown);
            LOG.info("wrote {} and {}", options.markdown, options.json);
        }
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /**
     * The cold-start run: writes its JSON and renders the page with the replay figures of the last full run, when
     * there are some.
     */
    private static void coldStart(BenchOptions options) throws IOException {
        ColdStartResults results;
        try {
            results = ColdStart.run(options.repo, options.runs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        writeJson(options.coldStartJson, results);
        Results replay = Files.isRegularFile(options.json)
                ? new ObjectMapper().readValue(options.json.toFile(), Results.class) : null;
        Files.writeString(options.markdown, Report.markdown(replay, results));
        System.out.println(Report.coldStartSection(results));
        LOG.info("wrote {} and {}", options.markdown, options.coldStartJson);
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /** Writes a run's figures as indented JSON, creating the directory. */
    static void writeJson(Path file, Object figures) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), figures);
    }

    private static ColdStartResults readColdStart(Path json) throws IOException {
        return Files.isRegularFile(json) ? new ObjectMapper().readValue(json.toFile(), ColdStartResults.class) : null;
    }

    private static Results.Environment environment(BenchOptions options) {
        Runtime runtime = Runtime.getRuntime();
        return new Results.Environment(
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                COMMAND.replace("--records 20000", "--records " + options.records),
                runtime.availableProcessors(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                runtime.maxMemory() / (1024 * 1024),
                "DynamoDB Local " + dynamoDbLocalVersion() + ", server mode over HTTP, in memory",
                options.records, options.seed, BATCH_SIZE, options.warmUpRecords);
    }

    static String dynamoDbLocalVersion() {
        try (var in = Bench.class.getResourceAsStream("/bench.properties")) {
            java.util.Properties properties = new java.util.Properties();
            if (in != null) {
                properties.load(in);
            }
            return properties.getProperty("dynamodbLocal", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    // ---------------------------------------------------------------- replay

    /**
     * Replays a small mix of the blog's, the catalogue's, songs' and favourites' writes to both processors, without reporting it: the JVM compiles the
     * code the replays run (DynamoDB Local's, the SDK's, the processors') while it is hot, and that compilation costs
     * more CPU than the replay itself for the first few thousand records. Without a warm-up, the first workload's
     * first processor would pay for it alone, and the faster processor, with the shorter phase, pays the larger share.
     */
    private void warmUp(BenchOptions options) {
        long seed = options.seed + 1;
        int records = options.warmUpRecords;
        List<Write> writes = new ArrayList<>(Workload.writes(seed, 1.1, records / 2));
        writes.addAll(Workload.songWrites(seed, HOT_SONG_SKEW, records / 4));
        writes.addAll(Workload.favouriteWrites(seed, TAG_SKEW, records / 4));
        Results.WorkloadResult warmUp = workload("warm-up", 1.1, writes);
        LOG.info("warm-up (not reported): {} records, tally {} records/s, naive {} records/s, exact {}",
                warmUp.records(), Report.fmt(warmUp.tally().recordsPerSec(), 0),
                Report.fmt(warmUp.naive().recordsPerSec(), 0), warmUp.tally().exactAfterRun());
    }

    private Results.WorkloadResult workload(String name, double skew, BenchOptions options) {
        return workload(name, skew, Workload.writes(options.seed, skew, options.records));
    }

    private Results.WorkloadResult workload(String name, double skew, List<Write> writes) {
        String recording = "rec-" + name;
        admin.createTable(TableDefinition.createTableRequest(recording));
        LOG.info("{}: writing {} base writes on {} threads", name, writes.size(), WRITER_THREADS);
        long started = System.nanoTime();
        TableWriter.write(admin, recording, writes, WRITER_THREADS);
        double writeSeconds = Timing.seconds(started);

        started = System.nanoTime();
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(server.streamsClient(), recording,
                StreamRecords::fromSdk);
        double readSeconds = Timing.seconds(started);
        int records = stream.values().stream().mapToInt(List::size).sum();
        LOG.info("{}: {} base writes in {}s, {} stream records in {} shards read in {}s", name, writes.size(),
                Report.fmt(writeSeconds, 1), records, stream.size(), Report.fmt(readSeconds, 1));

        List<Map<String, AttributeValue>> baseItems = new ArrayList<>();
        admin.scanPaginator(r -> r.tableName(recording).consistentRead(true)).items().forEach(baseItems::add);

        Results.ProcessorResult tally = replay(name, "tally", stream, baseItems, records, (client, table) -> {
            Engine engine = StreamWiring.engine(client, table, events -> List.of(), new SimpleMeterRegistry(),
                    ShardSettings.DEFAULTS);
            return new Processor(batch -> processWithRetries(engine, batch), engine::close);
        });
        Results.ProcessorResult naive = replay(name, "naive", stream, baseItems, records, (client, table) -> {
            NaiveProcessor processor = new NaiveProcessor(client, table, derivations);
            return new Processor(processor::process, () -> { });
        });
        return new Results.WorkloadResult(name, skew, writes.size(), WRITER_THREADS, writes.size() / writeSeconds,
                records, stream.size(), records / readSeconds, baseItems.size(), tally, naive);
    }

    record Processor(Consumer<List<SourceRecord>> process, Runnable close) {
    }

    interface ProcessorFactory {
        Processor create(DynamoDbClient client, String table);
    }

    private Results.ProcessorResult replay(String workload, String processorName, Map<String, List<SourceRecord>> stream,
                                           List<Map<String, AttributeValue>> baseItems, int records,
                                           ProcessorFactory factory) {
        String table = processorName + "-" + workload;
        // No stream on the replay tables: nothing reads their echoes, and DynamoDB Local looks the stream up on
        // every write to a stream-enabled table (SQLiteDBAccessJob.getStreamDescription) at a cost that grows with
        // the stream, which would tax every extra request of the naive processor more than the one before.
        admin.createTable(TableDefinition.createTableRequest(table).toBuilder()
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
        RequestCounter counter = new RequestCounter();
        DynamoDbClient client = server.client(counter);
        Processor processor = factory.create(client, table);
        try {
            LOG.info("{}: replaying {} records to {}", workload, records, processorName);
            RequestCounter.Snapshot before = counter.snapshot();
            long started;
            double elapsed;
            long peak;
            Results.Cpu cpu;
            Results.Profile profile;
            Profiler profiler = Profiler.start();
            try (HeapSampler heap = HeapSampler.start()) {
                CpuUse cpuAtStart = CpuUse.now();
                started = System.nanoTime();
                for (List<SourceRecord> shard : stream.values()) {
                    for (int from = 0; from < shard.size(); from += BATCH_SIZE) {
                        processor.process().accept(shard.subList(from, Math.min(shard.size(), from + BATCH_SIZE)));
                    }
                }
                elapsed = Timing.seconds(started);
                cpu = CpuUse.since(cpuAtStart);
                heap.close();
                peak = heap.peakBytes();
                // Read after the heap's peak: reading the recording back takes heap of its own.
                profile = profiler == null ? null : profiler.stop();
            } finally {
                if (profiler != null) {
                    profiler.close();
                }
            }
            RequestCounter.Snapshot used = counter.snapshot().minus(before);
            LOG.info("{}: {} took {}s, {} requests", workload, processorName, Report.fmt(elapsed, 1), used.requests());

            // The oracle recomputes from base items; the replay wrote only derived ones.
            TableWriter.write(admin, table, baseItems.stream().map(Write::put).toList(), WRITER_THREADS);
            Rebuilder rebuilder = new Rebuilder(admin, server.streamsClient(), table, derivations, 2);
            VerificationReport afterRun = rebuilder.verify();

            List<SourceRecord> longest = stream.values().stream().max((a, b) -> Integer.compare(a.size(), b.size()))
                    .orElseThrow();
            int from = Math.max(0, (longest.size() / 2 / BATCH_SIZE) * BATCH_SIZE);
            List<SourceRecord> duplicate = longest.subList(from, Math.min(longest.size(), from + BATCH_SIZE));
            processor.process().accept(duplicate);
            VerificationReport afterDuplicate = rebuilder.verify();
            LOG.info("{}: {} exact after run: {}, differences after a duplicated batch: {}", workload, processorName,
                    afterRun.isExact(), afterDuplicate.differences().size());

            return new Results.ProcessorResult(processorName, records, elapsed, records / elapsed, used.requests(),
                    used.failedRequests(), (double) used.requests() / records, used.writeUnits(),
                    used.writeUnits() / records, used.writesWithoutCapacity() == 0, peak / (1024 * 1024),
                    afterRun.isExact(), afterRun.differences().size(), duplicate.size(),
                    afterDuplicate.differences().size(), driftedItems(afterDuplicate), breakdown(used), cpu,
                    profile);
        } finally {
            processor.close().run();
            client.close();
        }
    }

    private Results.Freshness freshness(BenchOptions options) {
        return new FreshnessRun(server, admin, derivations).run(options);
    }

    static List<Results.WriteUnitShare> breakdown(RequestCounter.Snapshot used) {
        List<Results.WriteUnitShare> shares = new ArrayList<>();
        used.unitsByType().forEach((type, byDestination) -> shares.add(new Results.WriteUnitShare(type,
                used.writesByType().getOrDefault(type, 0L),
                byDestination.values().stream().mapToDouble(Double::doubleValue).sum(), byDestination)));
        return shares;
    }

    private static int driftedItems(VerificationReport report) {
        return (int) report.differences().stream().map(Difference::key).distinct().count();
    }

    /** As the event source mapping: a reported failure makes the batch start again at that record. */
    static void processWithRetries(Engine engine, List<SourceRecord> batch) {
        List<SourceRecord> remaining = batch;
        for (int attempt = 1; !remaining.isEmpty(); attempt++) {
            BatchResult result = engine.process(remaining);
            Optional<String> failed = result.failedSequenceNumber();
            if (failed.isEmpty()) {
                return;
            }
            if (attempt >= 10) {
                throw new IllegalStateException("batch keeps failing at " + failed.get() + ": " + result);
            }
            int index = 0;
            while (index < remaining.size() && !remaining.get(index).sequenceNumber().equals(failed.get())) {
                index++;
            }
            remaining = remaining.subList(Math.min(index, remaining.size() - 1), remaining.size());
        }
    }

}
