package io.tally.stream.rebuild;

import io.tally.core.StreamShards;
import io.tally.stream.engine.SourceRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads everything a table's stream still holds, every shard from its trim horizon to its end, parents before
 * children, and tells the position it reached. A closed shard ends where GetRecords stops returning a next iterator;
 * an open one at the first empty page once {@code notBefore} has passed (the rebuild passes the end of its scan plus a
 * settling time, so that every change the scan saw has had time to reach the stream) and once the shard itself has
 * been read for the settling time: GetRecords may answer an empty page before a shard's tip, so a shard read after
 * the common deadline (there are many, or they are long) still gets pages past a first empty one.
 *
 * <p>Lines of shards are read at the same time, by a bounded number of readers: a shard is read once its parent has
 * been read to its end, and any shard whose parent is read (or not listed) may be read alongside the others, so the
 * open shards' settling times overlap instead of adding up. The records of one item are in one line, so the sink still
 * meets them in the order they were written.
 */
final class StreamHistory {
    private final DynamoDbStreamsClient streams;
    private final ShardReader reader;
    private final Clock clock;
    private final int readers;

    /** @param readers how many shards are read at the same time, at most */
    StreamHistory(DynamoDbStreamsClient streams, Clock clock, int readers) {
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be at least 1: " + readers);
        }
        this.streams = streams;
        this.reader = new ShardReader(streams, clock);
        this.clock = clock;
        this.readers = readers;
    }

    /** Every shard the stream lists now, parents before children. */
    List<Shard> shards(String streamArn) {
        return lineageOrder(StreamShards.listed(streams, streamArn));
    }

    /**
     * The shards ordered so that a parent comes before its children: the records of one item are in one line of
     * shards, so reading in this order meets them in the order they were written. A shard whose parent is not listed
     * (trimmed) starts a line.
     */
    static List<Shard> lineageOrder(List<Shard> shards) {
        Map<String, Shard> byId = new HashMap<>();
        shards.forEach(shard -> byId.put(shard.shardId(), shard));
        Set<String> placed = new HashSet<>();
        List<Shard> ordered = new ArrayList<>();
        for (Shard shard : shards) {
            place(shard, byId, placed, ordered, new HashSet<>());
        }
        return ordered;
    }

    private static void place(Shard shard, Map<String, Shard> byId, Set<String> placed, List<Shard> ordered,
                              Set<String> visiting) {
        if (placed.contains(shard.shardId()) || !visiting.add(shard.shardId())) {
            return;
        }
        Shard parent = shard.parentShardId() == null ? null : byId.get(shard.parentShardId());
        if (parent != null) {
            place(parent, byId, placed, ordered, visiting);
        }
        placed.add(shard.shardId());
        ordered.add(shard);
    }

    /**
     * Reads the shards to their ends, handing every record to {@code sink}. A shard is read once its parent, if given,
     * has been read to its end; up to {@code readers} shards are read at the same time. The sink is called by one
     * thread at a time and meets each shard's records in stream order, a parent's before its children's; it need not
     * be thread-safe. When a shard's read fails, the others stop and the first failure is thrown.
     *
     * @param shards    parents before children ({@link #lineageOrder}); the position lists them in this order
     * @param notBefore an open shard is not taken as read to its end before this instant
     * @param settle    nor before it has been read for this long, from its first page
     */
    StreamPosition read(String streamArn, List<Shard> shards, Instant notBefore, Duration settle,
                        Consumer<SourceRecord> sink) {
        Map<String, String> last = new ConcurrentHashMap<>();
        Set<String> open = new HashSet<>();
        for (Shard shard : shards) {
            if (!closed(shard)) {
                open.add(shard.shardId());
            }
        }
        CompletableFuture<Void> failed = new CompletableFuture<>();
        Object sinkLock = new Object();
        Consumer<List<SourceRecord>> pages = page -> {
            if (failed.isDone()) {
                throw new CancellationException("another shard's read failed");
            }
            synchronized (sinkLock) {
                page.forEach(sink);
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(readers, shards.size())),
                new ReaderThreads());
        try {
            Map<String, CompletableFuture<Void>> reads = new HashMap<>();
            for (Shard shard : lineageOrder(shards)) {
                Runnable task = () -> {
                    try {
                        Instant settled = clock.instant().plus(settle);
                        String lastRead = reader.read(streamArn, shard.shardId(), closed(shard),
                                settled.isAfter(notBefore) ? settled : notBefore, pages);
                        if (lastRead != null) {
                            last.put(shard.shardId(), lastRead);
                        }
                    } catch (RuntimeException | Error e) {
                        failed.completeExceptionally(e);
                        throw e;
                    }
                };
                CompletableFuture<Void> parent = shard.parentShardId() == null ? null
                        : reads.get(shard.parentShardId());
                reads.put(shard.shardId(), parent == null ? CompletableFuture.runAsync(task, pool)
                        : parent.thenRunAsync(task, pool));
            }
            CompletableFuture.anyOf(CompletableFuture.allOf(reads.values().toArray(CompletableFuture[]::new)), failed)
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the stream", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        } finally {
            pool.shutdownNow();
        }
        return new StreamPosition(streamArn, shards.stream().map(Shard::shardId).toList(), last, open);
    }

    private static boolean closed(Shard shard) {
        return shard.sequenceNumberRange() != null && shard.sequenceNumberRange().endingSequenceNumber() != null;
    }

    /** Daemon threads, named for a thread dump. */
    private static final class ReaderThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "stream-reader-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
