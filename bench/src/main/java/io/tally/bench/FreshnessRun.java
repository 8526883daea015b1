package io.tally.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.stream.StreamRecords;
import io.tally.stream.StreamWiring;
import io.tally.stream.derive.Derivations;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import io.tally.testkit.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The freshness run: how long after its write is acknowledged a write shows in derived data, with the writer at
 * half its single-thread maximum and a poller feeding the engine as the local runner does.
 */
final class FreshnessRun {
    private static final Logger LOG = LoggerFactory.getLogger(FreshnessRun.class);
    /** Marks each put of the freshness run, so the poller can tell which write a stream record carries. */
    static final String WRITE_MARKER = "benchWrite";
    private static final long POLL_INTERVAL_MS = 250;

    private final LocalDynamoDbServer server;
    private final DynamoDbClient admin;
    private final Derivations derivations;

    FreshnessRun(LocalDynamoDbServer server, DynamoDbClient admin, Derivations derivations) {
        this.server = server;
        this.admin = admin;
        this.derivations = derivations;
    }

    Results.Freshness run(BenchOptions options) {
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
        LOG.info("freshness: writer maximum {} writes/s with one thread, measuring at {}/s for {}s",
                Report.fmt(maxRate, 0), Report.fmt(rate, 0), options.freshnessSeconds);

        String table = "fresh";
        admin.createTable(TableDefinition.createTableRequest(table));
        int count = (int) Math.round(rate * options.freshnessSeconds);
        List<Write> writes = marked(Workload.writes(options.seed + 2, 1.1, count).subList(0, count));
        AtomicLongArray acked = new AtomicLongArray(writes.size());
        AtomicLongArray visible = new AtomicLongArray(writes.size());

        DynamoDbClient processorClient = server.client();
        Engine engine = StreamWiring.engine(processorClient, table, events -> List.of(), new SimpleMeterRegistry(),
                ShardSettings.DEFAULTS);
        Poller poller = new Poller(server.streamsClient(), table, engine, visible);
        Thread pollerThread = new Thread(poller, "poller");
        pollerThread.start();

        DynamoDbClient writer = server.client();
        long start = System.nanoTime();
        long intervalNanos = (long) (1e9 / rate);
        for (int i = 0; i < writes.size(); i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Timing.sleepNanos(wait);
            }
            send(writer, table, writes.get(i));
            acked.set(i, System.nanoTime());
        }
        double writeSeconds = Timing.seconds(start);

        // Let the poller catch up, then stop it.
        long giveUp = System.nanoTime() + 15_000_000_000L;
        List<Integer> measured = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            if (!writes.get(i).isDelete()) {
                measured.add(i);
            }
        }
        while (System.nanoTime() < giveUp && measured.stream().anyMatch(i -> visible.get(i) == 0)) {
            Timing.sleepNanos(50_000_000L);
        }
        poller.stop();
        try {
            pollerThread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.close();

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
        return new Results.Freshness(maxRate, rate, writes.size() / writeSeconds, writeSeconds, writes.size(),
                measured.size(), missing, Report.percentile(lags, 50), Report.percentile(lags, 99),
                Report.percentile(lags, 100), exact);
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
     * GetRecords into the engine, shard by shard, as the local runner's poller: one worker, pages of up to a batch,
     * the next GetRecords at once after a page with records and 250 ms after an empty one.
     */
    private static final class Poller implements Runnable {
        private final DynamoDbStreamsClient streams;
        private final String table;
        private final Engine engine;
        private final AtomicLongArray visible;
        private volatile boolean running = true;

        Poller(DynamoDbStreamsClient streams, String table, Engine engine, AtomicLongArray visible) {
            this.streams = streams;
            this.table = table;
            this.engine = engine;
            this.visible = visible;
        }

        void stop() {
            running = false;
        }

        @Override
        public void run() {
            try {
                String streamArn = StreamReader.streamArn(streams, table);
                java.util.Set<String> done = new HashSet<>();
                while (running) {
                    Optional<Shard> next = StreamReader.shards(streams, streamArn).stream()
                            .filter(shard -> !done.contains(shard.shardId()))
                            // A parent that has expired from the stream is no longer listed: do not wait for it.
                            .filter(shard -> shard.parentShardId() == null || done.contains(shard.parentShardId())
                                    || !listed(streamArn, shard.parentShardId()))
                            .findFirst();
                    if (next.isEmpty()) {
                        Timing.sleepNanos(POLL_INTERVAL_MS * 1_000_000L);
                        continue;
                    }
                    Shard shard = next.get();
                    drain(streamArn, shard);
                    done.add(shard.shardId());
                }
            } catch (RuntimeException e) {
                LOG.error("poller failed", e);
            }
        }

        private boolean listed(String streamArn, String shardId) {
            return StreamReader.shards(streams, streamArn).stream().anyMatch(s -> s.shardId().equals(shardId));
        }

        private void drain(String streamArn, Shard shard) {
            String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (running && iterator != null) {
                String current = iterator;
                GetRecordsResponse response = streams.getRecords(r -> r.shardIterator(current).limit(Bench.BATCH_SIZE));
                List<SourceRecord> batch = response.records().stream()
                        .map(record -> StreamRecords.fromSdk(shard.shardId(), record)).toList();
                if (!batch.isEmpty()) {
                    ReplayRun.processWithRetries(engine, batch);
                    long now = System.nanoTime();
                    for (SourceRecord record : batch) {
                        AttributeValue marker = record.newImage() == null ? null : record.newImage().get(WRITE_MARKER);
                        if (marker != null) {
                            visible.set(Integer.parseInt(marker.n()), now);
                        }
                    }
                }
                iterator = response.nextShardIterator();
                // As Lambda's event source mapping at its best: four polls a second of an idle shard, and the next
                // poll as soon as an invocation with records ends (the local runner's ShardWorker does the same).
                if (batch.isEmpty()) {
                    Timing.sleepNanos(POLL_INTERVAL_MS * 1_000_000L);
                }
            }
        }
    }
}
