package io.tally.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.local.stream.BatchInvoker;
import io.tally.local.stream.DiscardedBatch;
import io.tally.local.stream.EsmSettings;
import io.tally.local.stream.FailureDestination;
import io.tally.local.stream.InvocationResult;
import io.tally.local.stream.PollerSnapshot;
import io.tally.local.stream.StreamPoller;
import io.tally.local.stream.TumblingWindowBatchInvoker;
import io.tally.stream.StreamWiring;
import io.tally.stream.WindowedStreamHandler;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.Engine;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.Workload;
import io.tally.core.workload.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The freshness run: how long after its write is acknowledged a write shows in derived data, with the writer at
 * half its single-thread maximum and the local runner's stream poller, with the deployment's event source mapping
 * settings, invoking the deployed stream handler.
 */
record FreshnessRun(LocalDynamoDbServer server, DynamoDbClient admin, Derivations derivations) {
    private static final Logger LOG = LoggerFactory.getLogger(FreshnessRun.class);
    /** Marks each put of the freshness run, so the poller can tell which write a stream record carries. */
    static final String WRITE_MARKER = "benchWrite";

    /**
     * @param settings the event source mapping's settings the poller runs with: the deployment's
     *                 ({@code EsmSettings.defaults()}), or the large-batch alternative ({@link LargeBatchReport})
     */
    Results.Freshness run(BenchOptions options, EsmSettings settings) {
        // The writer's ceiling: one thread, single-item writes, nothing else running.
        admin.createTable(TableDefinition.createTableRequest("fresh-max"));
        List<Write> probe = Workload.writes(options.seed + 1, 1.1, 100_000);
        long started = System.nanoTime();
        long deadline = started + 5_000_000_000L;
        int sent = 0;
        while (System.nanoTime() < deadline && sent < probe.size()) {
            send(admin, "fresh-max", probe.get(sent++));
        }
        double maxRate = sent / Timing.seconds(started);
        double rate = maxRate / 2;
        LOG.info("freshness: writer maximum {} writes/s with one thread, measuring at {}/s for {}s (BatchSize {},"
                + " MaximumBatchingWindowInSeconds {})", Report.fmt(maxRate, 0), Report.fmt(rate, 0),
                options.freshnessSeconds, settings.batchSize(), settings.maximumBatchingWindow().toSeconds());

        String table = "fresh";
        admin.createTable(TableDefinition.createTableRequest(table));
        int count = (int) Math.round(rate * options.freshnessSeconds);
        List<Write> writes = marked(Workload.writes(options.seed + 2, 1.1, count).subList(0, count));
        AtomicLongArray acked = new AtomicLongArray(writes.size());
        AtomicLongArray visible = new AtomicLongArray(writes.size());

        RequestCounter counter = new RequestCounter();
        List<DiscardedBatch> discarded = new CopyOnWriteArrayList<>();
        List<Integer> measured = new ArrayList<>();
        double writeSeconds;
        PollerSnapshot pollerFigures;
        RequestCounter.Snapshot used;
        try (DynamoDbClient processorClient = server.client(counter);
             DynamoDbClient writer = server.client();
             Engine engine = StreamWiring.engine(processorClient, table, events -> List.of(), new SimpleMeterRegistry(),
                     ShardSettings.DEFAULTS);
             StreamPoller poller = poller(table, engine, visible, settings, discarded::add)) {
            poller.start();
            // The first write is not measured: it waits until the poller has found the stream's shard.
            send(writer, table, writes.get(0));
            acked.set(0, System.nanoTime());
            long firstDeadline = System.nanoTime() + 10_000_000_000L;
            while (visible.get(0) == 0 && System.nanoTime() < firstDeadline) {
                Timing.sleepNanos(10_000_000L);
            }
            RequestCounter.Snapshot before = counter.snapshot();
            long start = System.nanoTime();
            long intervalNanos = (long) (1e9 / rate);
            for (int i = 1; i < writes.size(); i++) {
                long due = start + (i - 1) * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Timing.sleepNanos(wait);
                }
                send(writer, table, writes.get(i));
                acked.set(i, System.nanoTime());
            }
            writeSeconds = Timing.seconds(start);

            // Let the poller catch up, then stop it.
            long giveUp = System.nanoTime() + 15_000_000_000L;
            for (int i = 1; i < writes.size(); i++) {
                if (!writes.get(i).isDelete()) {
                    measured.add(i);
                }
            }
            while (System.nanoTime() < giveUp && measured.stream().anyMatch(i -> visible.get(i) == 0)) {
                Timing.sleepNanos(50_000_000L);
            }
            used = counter.snapshot().minus(before);
            pollerFigures = poller.snapshot();
        }
        if (!discarded.isEmpty()) {
            throw new IllegalStateException("the freshness run's poller gave up " + discarded.size() + " batches: "
                    + discarded);
        }
        LOG.info("freshness: {} invocations of the stream function for {} records, {} retries",
                pollerFigures.invocations(), pollerFigures.recordsProcessed(), pollerFigures.retries());

        List<Double> lags = new ArrayList<>();
        int missing = 0;
        for (int i : measured) {
            if (visible.get(i) == 0) {
                missing++;
            } else {
                // The poller may apply a write before the writer thread has noted its acknowledgement.
                lags.add(Math.max(0, visible.get(i) - acked.get(i)) / 1e6);
            }
        }
        boolean exact = new Rebuilder(admin, server.streamsClient(), table, derivations, 2).verify().isExact();
        LOG.info("freshness: {} measured, {} missing, p50 {} ms, p99 {} ms", lags.size(), missing,
                Report.fmt(Report.percentile(lags, 50), 0), Report.fmt(Report.percentile(lags, 99), 0));
        int timed = writes.size() - 1;
        return new Results.Freshness(maxRate, rate, timed / writeSeconds, writeSeconds, timed,
                measured.size(), missing, Report.percentile(lags, 50), Report.percentile(lags, 99),
                Report.percentile(lags, 100), exact, (int) settings.maximumBatchingWindow().toSeconds(),
                pollerFigures.invocations(), pollerFigures.retries(), used.writeUnits() / timed);
    }

    /** Each put carries its position in the run; derivations ignore attributes they do not know. */
    static List<Write> marked(List<Write> writes) {
        List<Write> marked = new ArrayList<>(writes.size());
        for (int i = 0; i < writes.size(); i++) {
            Write write = writes.get(i);
            if (write.isDelete()) {
                marked.add(write);
            } else {
                Map<String, AttributeValue> item = new HashMap<>(write.item());
                item.put(WRITE_MARKER, AttributeValue.fromN(Integer.toString(i)));
                marked.add(new Write(write.key(), Map.copyOf(item)));
            }
        }
        return marked;
    }

    private static void send(DynamoDbClient client, String table, Write write) {
        if (write.isDelete()) {
            client.deleteItem(r -> r.tableName(table).key(write.key().toAttributeMap()));
        } else {
            client.putItem(r -> r.tableName(table).item(write.item()));
        }
    }

    /**
     * The local runner's stream poller ({@code StreamPoller}) with the given event source mapping settings, invoking
     * the deployed handler ({@code WindowedStreamHandler}) through the tumbling-window adapter, as {@code tally-local}
     * wires them (but with no event publisher). An invocation marks the writes its records carry as visible when it
     * returns: all of them when it succeeded, those before the lowest failed record when it reported
     * {@code batchItemFailures} (the poller checkpoints those and retries from the failed one).
     */
    private StreamPoller poller(String table, Engine engine, AtomicLongArray visible, EsmSettings settings,
                                FailureDestination discarded) {
        String streamArn = StreamPoller.latestStreamArn(admin, table);
        BatchInvoker handler = new TumblingWindowBatchInvoker("freshness", streamArn, settings.tumblingWindow(),
                new WindowedStreamHandler(engine, () -> { }));
        BatchInvoker marking = (shardId, records) -> {
            InvocationResult result = handler.invoke(shardId, records);
            int applied = result.isSuccess() ? records.size() : appliedBefore(result, records);
            long now = System.nanoTime();
            for (Record record : records.subList(0, applied)) {
                AttributeValue marker = record.dynamodb().hasNewImage()
                        ? record.dynamodb().newImage().get(WRITE_MARKER) : null;
                if (marker != null) {
                    visible.compareAndSet(Integer.parseInt(marker.n()), 0, now);
                }
            }
            return result;
        };
        return StreamPoller.builder()
                .streamsClient(server.streamsClient())
                .streamArn(streamArn)
                .settings(settings)
                .invoker(marking)
                .failureDestination(discarded)
                .functionName("freshness")
                .build();
    }

    /** How many records of a batch come before the lowest one the function reported as failed (0 if none). */
    static int appliedBefore(InvocationResult result, List<Record> records) {
        if (result.functionError().isPresent() || result.batchItemFailures().isEmpty()) {
            return 0;
        }
        // -1: an identifier not in the batch, so the poller retries all of it.
        return Math.max(0, result.lowestFailedIndex(records));
    }
}
