package io.tally.bench;

import io.tally.testkit.TableWriter;
import io.tally.domains.favs.FavWorkload;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.StreamRecords;
import io.tally.stream.StreamWiring;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Difference;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import io.tally.core.workload.Write;
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
 * One replay workload: its base writes recorded into a table, its stream read back, and the same records replayed to
 * Tally's engine and to the naive processor, and to Tally's engine again in large batches ({@link LargeBatchReport}),
 * each on a table of its own, with their requests, write units, CPU and
 * profile counted and the oracle run after the replay and after a duplicated batch.
 */
final class ReplayRun {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayRun.class);
    private static final String WARM_UP = "warm-up";

    private final LocalDynamoDbServer server;
    private final DynamoDbClient admin;
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    private ReplayRun(LocalDynamoDbServer server) {
        this.server = server;
        this.admin = server.client();
    }

    /**
     * Replays a small mix of the blog's, the catalogue's, songs' and favourites' writes to both processors, without
     * reporting it: the JVM compiles the code the replays run (DynamoDB Local's, the SDK's, the processors') while it
     * is hot, and that compilation costs more CPU than the replay itself for the first few thousand records. Without a
     * warm-up, the first workload's first processor would pay for it alone, and the faster processor, with the shorter
     * phase, pays the larger share.
     */
    static void warmUp(BenchOptions options) {
        long seed = options.seed + 1;
        int records = options.warmUpRecords;
        List<Write> writes = new ArrayList<>(Workload.writes(seed, 1.1, records / 2));
        writes.addAll(Workload.writes(seed, Bench.HOT_SONG_SKEW, records / 4, "songs"));
        writes.addAll(Workload.writes(seed, Bench.TAG_SKEW, records / 4, FavWorkload::unlinkingFirst));
        Results.WorkloadResult warmUp = onFreshServer(WARM_UP, 1.1, writes);
        LOG.info("warm-up (not reported): {} records, tally {} records/s, naive {} records/s, exact {}",
                warmUp.records(), Report.fmt(warmUp.tally().recordsPerSec(), 0),
                Report.fmt(warmUp.naive().recordsPerSec(), 0), warmUp.tally().exactAfterRun());
    }

    /**
     * Records {@code writes} and replays them to both processors on a fresh server: DynamoDB Local looks up the
     * stream on every write to a stream-enabled table at a cost that grows with the stream records already in the
     * database, so a phase run after another would inherit the earlier phases' streams and slow down for that reason
     * alone.
     */
    static Results.WorkloadResult onFreshServer(String name, double skew, List<Write> writes) {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            return new ReplayRun(server).workload(name, skew, writes);
        }
    }

    private Results.WorkloadResult workload(String name, double skew, List<Write> writes) {
        String recording = "rec-" + name;
        admin.createTable(TableDefinition.createTableRequest(recording));
        LOG.info("{}: writing {} base writes on {} threads", name, writes.size(), Bench.WRITER_THREADS);
        long started = System.nanoTime();
        TableWriter.write(admin, recording, writes, Bench.WRITER_THREADS);
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

        ProcessorFactory engine = (client, table) -> {
            Engine tally = StreamWiring.engine(client, table, events -> List.of(), new SimpleMeterRegistry(),
                    ShardSettings.DEFAULTS);
            return new Processor(batch -> processWithRetries(tally, batch), tally::close);
        };
        Results.ProcessorResult tally = replay(name, "tally", stream, baseItems, records, Bench.BATCH_SIZE, engine);
        Results.ProcessorResult naive = replay(name, "naive", stream, baseItems, records, Bench.BATCH_SIZE,
                (client, table) -> {
                    NaiveProcessor processor = new NaiveProcessor(client, table, derivations);
                    return new Processor(processor::process, () -> { });
                });
        // The naive processor takes a record at a time: the batch size changes nothing of its work.
        Results.ProcessorResult largeBatch = replay(name, LargeBatchReport.PROCESSOR, stream, baseItems, records,
                LargeBatchReport.BATCH_SIZE, engine);
        // The warm-up is not reported: no floor for it.
        Results.Floor floor = name.equals(WARM_UP) ? null : FloorRun.run(server, name, stream, Bench.BATCH_SIZE);
        return new Results.WorkloadResult(name, skew, writes.size(), Bench.WRITER_THREADS, writes.size() / writeSeconds,
                records, stream.size(), records / readSeconds, baseItems.size(), tally, naive, largeBatch, floor);
    }

    record Processor(Consumer<List<SourceRecord>> process, Runnable close) {
    }

    interface ProcessorFactory {
        Processor create(DynamoDbClient client, String table);
    }

    private Results.ProcessorResult replay(String workload, String processorName, Map<String, List<SourceRecord>> stream,
                                           List<Map<String, AttributeValue>> baseItems, int records, int batchSize,
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
            Results.TableLock lock;
            Profiler profiler = Profiler.start();
            try (HeapSampler heap = HeapSampler.start(); TableLockSampler lockSampler = TableLockSampler.start()) {
                CpuUse cpuAtStart = CpuUse.now();
                started = System.nanoTime();
                for (List<SourceRecord> shard : stream.values()) {
                    for (int from = 0; from < shard.size(); from += batchSize) {
                        processor.process().accept(shard.subList(from, Math.min(shard.size(), from + batchSize)));
                    }
                }
                elapsed = Timing.seconds(started);
                cpu = CpuUse.since(cpuAtStart);
                lock = lockSampler.stop();
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
            LOG.info("{}: {} took {}s, {} requests, DynamoDB Local's table write lock occupied {}% of the time",
                    workload, processorName, Report.fmt(elapsed, 1), used.requests(),
                    lock == null ? "n/a" : Report.fmt(100 * lock.occupied(), 0));

            // The oracle recomputes from base items; the replay wrote only derived ones.
            TableWriter.write(admin, table, baseItems.stream().map(Write::put).toList(), Bench.WRITER_THREADS);
            Rebuilder rebuilder = new Rebuilder(admin, server.streamsClient(), table, derivations, 2);
            VerificationReport afterRun = rebuilder.verify();

            List<SourceRecord> longest = stream.values().stream().max((a, b) -> Integer.compare(a.size(), b.size()))
                    .orElseThrow();
            int from = Math.max(0, (longest.size() / 2 / batchSize) * batchSize);
            List<SourceRecord> duplicate = longest.subList(from, Math.min(longest.size(), from + batchSize));
            processor.process().accept(duplicate);
            VerificationReport afterDuplicate = rebuilder.verify();
            LOG.info("{}: {} exact after run: {}, differences after a duplicated batch: {}", workload, processorName,
                    afterRun.isExact(), afterDuplicate.differences().size());

            return new Results.ProcessorResult(processorName, records, elapsed, records / elapsed, used.requests(),
                    used.failedRequests(), (double) used.requests() / records, used.writeUnits(),
                    used.writeUnits() / records, used.writesWithoutCapacity() == 0, peak / (1024 * 1024),
                    afterRun.isExact(), afterRun.differences().size(), duplicate.size(),
                    afterDuplicate.differences().size(), driftedItems(afterDuplicate), breakdown(used), cpu,
                    profile, lock);
        } finally {
            processor.close().run();
            client.close();
        }
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
