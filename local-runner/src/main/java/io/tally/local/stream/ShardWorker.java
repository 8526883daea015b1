package io.tally.local.stream;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads one shard from its checkpoint to its end and hands its records to a {@link BatchProcessor}, one batch at a
 * time, so that the shard's records reach the function strictly in order. Runs on a thread of its own. Records the
 * mapping's filter does not keep are passed over as they are read, before batching, as on AWS: a batch holds up to
 * {@code BatchSize} kept records, and a shard whose records are all passed over invokes nothing.
 */
final class ShardWorker implements Runnable, BatchProcessor.Shard {
    private static final Logger LOG = LoggerFactory.getLogger(ShardWorker.class);
    /** The most GetRecords returns; batches are cut from what it returns. */
    private static final int GET_RECORDS_LIMIT = 1000;

    /** What the worker needs from its poller. */
    interface Poller {
        boolean stopping();

        /** The current drain request, see {@link StreamPoller#awaitDrained}. */
        long drainGeneration();

        /** Something a drain may be waiting for happened. */
        void progressed();

        /** The shard is closed and all its records are processed. */
        void shardDone(ShardWorker worker);
    }

    private final String streamArn;
    private final String shardId;
    private final DynamoDbStreamsClient streams;
    private final EsmSettings settings;
    private final StreamRecordFilter filter;
    private final Duration pollInterval;
    private final BatchProcessor.Backoff backoff;
    private final CheckpointStore checkpoints;
    private final Clock clock;
    private final PollerMetrics metrics;
    private final Poller poller;
    private BatchProcessor processor;

    private final Object wakeUp = new Object();
    private boolean wakeUpRequested;

    private final Deque<Record> buffer = new ArrayDeque<>();
    /** When the poller read each buffered record (parallel to {@link #buffer}): the exact clock of the lag. */
    private final Deque<Instant> bufferedSeenAt = new ArrayDeque<>();
    private long bufferedSince;
    private String iterator;
    private boolean shardEnd;
    /** Where a new iterator starts: after the last record read, which is past the checkpoint by what is buffered. */
    private String lastRead;
    private int readFailures;
    private boolean warnedCheckpointFailure;

    private volatile String checkpoint;
    /**
     * When the poller first read the oldest record not yet processed (buffered or in the batch in flight); null when
     * none waits. Not the record's ApproximateCreationDateTime: DynamoDB Local rounds that down to the minute.
     */
    private volatile Instant oldestPendingSeenAt;
    private volatile long caughtUpGeneration = -1;

    ShardWorker(String streamArn, String shardId, String checkpoint, DynamoDbStreamsClient streams,
            EsmSettings settings, StreamRecordFilter filter, Duration pollInterval, BatchProcessor.Backoff backoff,
            CheckpointStore checkpoints, Clock clock, PollerMetrics metrics, Poller poller) {
        this.streamArn = streamArn;
        this.shardId = shardId;
        this.checkpoint = checkpoint;
        this.lastRead = checkpoint;
        this.streams = streams;
        this.settings = settings;
        this.filter = filter;
        this.pollInterval = pollInterval;
        this.backoff = backoff;
        this.checkpoints = checkpoints;
        this.clock = clock;
        this.metrics = metrics;
        this.poller = poller;
    }

    /** Set once before the worker runs; the processor calls back into the worker. */
    void processor(BatchProcessor value) {
        this.processor = value;
    }

    String shardId() {
        return shardId;
    }

    String checkpoint() {
        return checkpoint;
    }

    /** The drain generation at whose start the worker had nothing left to process; -1 if never. */
    long caughtUpGeneration() {
        return caughtUpGeneration;
    }

    /** See {@link PollerSnapshot.ShardProgress#lag}. */
    Duration lag() {
        Instant oldest = oldestPendingSeenAt;
        if (oldest == null) {
            return Duration.ZERO;
        }
        Duration lag = Duration.between(oldest, clock.instant());
        return lag.isNegative() ? Duration.ZERO : lag;
    }

    /** Ends a pause early, for a drain that wants a fresh read or for stopping. */
    void wakeUp() {
        synchronized (wakeUp) {
            wakeUpRequested = true;
            wakeUp.notifyAll();
        }
    }

    @Override
    public void run() {
        while (!poller.stopping()) {
            if (readyToInvoke()) {
                if (!processor.process(takeBatch(), this)) {
                    return;
                }
                // Processed or sent to the failure destination: either way it no longer waits.
                oldestPendingSeenAt = bufferedSeenAt.peekFirst();
                continue;
            }
            if (shardEnd) {
                // Nothing buffered (else it would be ready to invoke) and nothing more to read.
                markDone();
                return;
            }
            if (iterator == null) {
                openIterator();
            } else {
                read();
            }
        }
    }

    private boolean readyToInvoke() {
        if (buffer.isEmpty()) {
            return false;
        }
        return buffer.size() >= settings.batchSize() || shardEnd || windowRemaining().isZero();
    }

    private Duration windowRemaining() {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - bufferedSince);
        Duration remaining = settings.maximumBatchingWindow().minus(elapsed);
        return remaining.isNegative() ? Duration.ZERO : remaining;
    }

    private List<Record> takeBatch() {
        int size = Math.min(settings.batchSize(), buffer.size());
        List<Record> batch = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            batch.add(buffer.removeFirst());
            bufferedSeenAt.removeFirst();
        }
        return batch;
    }

    private void openIterator() {
        GetShardIteratorRequest.Builder request = GetShardIteratorRequest.builder()
                .streamArn(streamArn)
                .shardId(shardId);
        if (lastRead == null) {
            request.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
        } else {
            request.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(lastRead);
        }
        try {
            iterator = streams.getShardIterator(request.build()).shardIterator();
            if (iterator == null) {
                shardEnd = true;
            }
            recovered();
        } catch (TrimmedDataAccessException e) {
            trimmed();
        } catch (SdkException e) {
            readFailed("GetShardIterator", e);
        }
    }

    private void read() {
        long generation = poller.drainGeneration();
        GetRecordsResponse response;
        try {
            response = streams.getRecords(request -> request.shardIterator(iterator).limit(GET_RECORDS_LIMIT));
            recovered();
        } catch (ExpiredIteratorException e) {
            // Iterators live 15 minutes; a long retry or batching window outlives one. The next opens a new one
            // after the last record read, so nothing is read twice or skipped.
            LOG.debug("shard {}: iterator expired, opening a new one after {}", shardId, lastRead);
            iterator = null;
            return;
        } catch (TrimmedDataAccessException e) {
            trimmed();
            return;
        } catch (SdkException e) {
            readFailed("GetRecords", e);
            return;
        }
        List<Record> records = response.records();
        if (!records.isEmpty()) {
            List<Record> kept = filter.keep(records, streamArn);
            if (kept.size() < records.size()) {
                metrics.filtered(records.size() - kept.size());
            }
            if (!kept.isEmpty()) {
                Instant seenAt = clock.instant();
                if (buffer.isEmpty()) {
                    bufferedSince = System.nanoTime();
                    // Nothing else waits (a batch in flight is processed on this thread, before the next read).
                    oldestPendingSeenAt = seenAt;
                }
                buffer.addAll(kept);
                kept.forEach(record -> bufferedSeenAt.addLast(seenAt));
            } else if (buffer.isEmpty()) {
                // All passed over, and nothing before them waits: the shard's position moves past them, as the
                // mapping's does, so that a restart does not read them again.
                checkpoint(records.get(records.size() - 1));
            }
            lastRead = records.get(records.size() - 1).dynamodb().sequenceNumber();
        }
        iterator = response.nextShardIterator();
        if (iterator == null) {
            shardEnd = true;
            return;
        }
        if (records.isEmpty()) {
            if (buffer.isEmpty()) {
                caughtUpGeneration = generation;
                poller.progressed();
                pause(pollInterval);
            } else {
                Duration remaining = windowRemaining();
                pause(remaining.compareTo(pollInterval) < 0 ? remaining : pollInterval);
            }
        }
    }

    /** The records after {@link #lastRead} are gone (older than the stream keeps); the oldest left come next. */
    private void trimmed() {
        LOG.warn("shard {}: records after {} were trimmed from the stream before they were processed; continuing with "
                + "the oldest record the shard still holds", shardId, lastRead == null ? "its start" : lastRead);
        lastRead = null;
        iterator = null;
    }

    private void readFailed(String operation, SdkException e) {
        readFailures++;
        if (readFailures == 1) {
            LOG.warn("shard {}: {} failed, retrying: {}", shardId, operation, e.toString());
        } else {
            LOG.debug("shard {}: {} failed again ({} times): {}", shardId, operation, readFailures, e.toString());
        }
        // Never quicker than polling: a retry without a pause would spin against a service that is down.
        Duration delay = backoff.delay(readFailures);
        pause(delay.compareTo(pollInterval) < 0 ? pollInterval : delay);
    }

    private void recovered() {
        if (readFailures > 0) {
            LOG.info("shard {}: reading again after {} failures", shardId, readFailures);
            readFailures = 0;
        }
    }

    private void markDone() {
        save(new ShardCheckpoint(checkpoint, true));
        oldestPendingSeenAt = null;
        LOG.debug("shard {}: done at {}", shardId, checkpoint);
        poller.shardDone(this);
    }

    @Override
    public void checkpoint(Record last) {
        checkpoint = last.dynamodb().sequenceNumber();
        save(ShardCheckpoint.at(checkpoint));
    }

    private void save(ShardCheckpoint value) {
        try {
            checkpoints.save(streamArn, shardId, value);
            if (warnedCheckpointFailure) {
                LOG.info("shard {}: checkpoints are saved again", shardId);
                warnedCheckpointFailure = false;
            }
        } catch (UncheckedIOException e) {
            // The worker carries on from its checkpoint in memory, and the store keeps it for its next save; only a
            // restart before that would deliver these records again, which at-least-once delivery allows.
            if (!warnedCheckpointFailure) {
                LOG.warn("shard {}: cannot save the checkpoint to {}: {}", shardId, checkpoints, e.getMessage());
                warnedCheckpointFailure = true;
            }
        }
    }

    @Override
    public boolean pause(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return !poller.stopping();
        }
        long deadline = System.nanoTime() + duration.toNanos();
        synchronized (wakeUp) {
            try {
                while (!wakeUpRequested && !poller.stopping()) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        break;
                    }
                    wakeUp.wait(Math.max(1, remaining / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            wakeUpRequested = false;
        }
        return !poller.stopping();
    }

    @Override
    public boolean stopping() {
        return poller.stopping() || Thread.currentThread().isInterrupted();
    }
}
