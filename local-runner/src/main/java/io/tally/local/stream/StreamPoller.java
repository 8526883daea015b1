package io.tally.local.stream;

import io.tally.local.lambda.LocalLambdaContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a DynamoDB stream and invokes a function with its records the way the Lambda event source mapping does, for
 * running the stream processor locally against DynamoDB Local.
 *
 * <ul>
 *   <li>Shards are found with {@code DescribeStream}, again every {@link Builder#discoveryInterval discovery
 *       interval} and whenever a shard is finished, so that the children of a rolled-over shard are picked up.</li>
 *   <li>A shard is read only after its parent is done (closed and every record processed), so that the records of
 *       one item reach the function in the order they were written.</li>
 *   <li>One worker per shard (ParallelizationFactor 1): a shard's batches are delivered one after the other, each
 *       only once the previous one is processed or discarded.</li>
 *   <li>Batching, retries, bisecting, {@code batchItemFailures}, record age and the on-failure destination follow
 *       {@link EsmSettings}; see {@link BatchProcessor}.</li>
 *   <li>Checkpoints per shard go to a {@link CheckpointStore}: a poller started again on the same store resumes after
 *       the last processed record, and never reads a shard again that it finished.</li>
 * </ul>
 *
 * <p>Differences from AWS: no 6 MB payload limit per invocation, no final invocation of a tumbling window, the
 * function's timeout is not enforced, StartingPosition is always TRIM_HORIZON, and a destination that cannot take a
 * batch holds up its shard until it can, so that no record is dropped unrecorded.
 */
public final class StreamPoller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamPoller.class);

    /** Lambda polls a shard four times a second when it has nothing to deliver. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(250);
    public static final Duration DEFAULT_DISCOVERY_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(100);
    public static final Duration DEFAULT_MAX_RETRY_BACKOFF = Duration.ofSeconds(2);
    /** How long {@link #close} lets invocations in flight finish. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private enum State { NEW, RUNNING, CLOSED }

    /** A shard as the poller tracks it. Guarded by {@link #lock}. */
    private static final class ShardEntry {
        final String shardId;
        final String parentShardId;
        PollerSnapshot.ShardStatus status = PollerSnapshot.ShardStatus.WAITING_FOR_PARENT;
        String checkpoint;
        ShardWorker worker;
        Thread thread;

        ShardEntry(String shardId, String parentShardId, String checkpoint) {
            this.shardId = shardId;
            this.parentShardId = parentShardId;
            this.checkpoint = checkpoint;
        }
    }

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final BatchInvoker invoker;
    private final FailureDestination destination;
    private final EsmSettings settings;
    private final CheckpointStore checkpoints;
    private final String functionArn;
    private final Clock clock;
    private final Duration pollInterval;
    private final Duration discoveryInterval;
    private final BatchProcessor.Backoff backoff;
    private final Duration shutdownTimeout;

    private final PollerMetrics metrics = new PollerMetrics();
    private final AtomicBoolean warnedIgnoredFailures = new AtomicBoolean();
    private final AtomicLong drainGeneration = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a shard catches up or finishes, or a discovery completes: what a drain waits for. */
    private final Condition progress = lock.newCondition();
    /** Signalled to make the coordinator describe the stream now. */
    private final Condition discover = lock.newCondition();
    private final Map<String, ShardEntry> shards = new LinkedHashMap<>();
    private volatile boolean stopping;
    private State state = State.NEW;
    private boolean discoveryRequested;
    private long describedGeneration = -1;
    private int describeFailures;
    private Map<String, ShardCheckpoint> initialCheckpoints = Map.of();
    private Thread coordinator;

    private StreamPoller(Builder builder) {
        this.streams = Objects.requireNonNull(builder.streams, "streamsClient");
        this.streamArn = Objects.requireNonNull(builder.streamArn, "streamArn");
        this.invoker = Objects.requireNonNull(builder.invoker, "invoker");
        this.destination = Objects.requireNonNull(builder.destination, "failureDestination");
        this.settings = builder.settings;
        this.checkpoints = builder.checkpoints;
        this.functionArn = "arn:aws:lambda:" + LocalLambdaContext.REGION + ":" + LocalLambdaContext.ACCOUNT_ID
                + ":function:" + builder.functionName;
        this.clock = builder.clock;
        this.pollInterval = builder.pollInterval;
        this.discoveryInterval = builder.discoveryInterval;
        this.backoff = new BatchProcessor.Backoff(builder.retryBackoff, builder.maxRetryBackoff);
        this.shutdownTimeout = builder.shutdownTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The ARN of the table's current stream.
     *
     * @throws IllegalStateException if the table has no stream
     */
    public static String latestStreamArn(DynamoDbClient dynamoDb, String tableName) {
        TableDescription table = dynamoDb.describeTable(request -> request.tableName(tableName)).table();
        if (table.latestStreamArn() == null || table.streamSpecification() == null
                || !Boolean.TRUE.equals(table.streamSpecification().streamEnabled())) {
            throw new IllegalStateException("table " + tableName + " has no stream enabled");
        }
        return table.latestStreamArn();
    }

    /** The event source mapping settings this poller runs with. */
    public EsmSettings settings() {
        return settings;
    }

    public String streamArn() {
        return streamArn;
    }

    /** Loads the checkpoints and starts polling in the background. */
    public void start() {
        lock.lock();
        try {
            if (state != State.NEW) {
                throw new IllegalStateException("the poller was started before");
            }
            initialCheckpoints = checkpoints.load(streamArn);
            coordinator = new Thread(this::coordinate, "stream-poller");
            coordinator.setDaemon(true);
            state = State.RUNNING;
            coordinator.start();
        } finally {
            lock.unlock();
        }
        LOG.info("polling stream {} for {} (BatchSize {}, MaximumRetryAttempts {}, checkpoints in {})", streamArn,
                functionArn, settings.batchSize(), settings.maximumRetryAttempts(), checkpoints);
    }

    /**
     * Waits until every record that was in the stream when this method was called is processed or discarded: every
     * shard the stream has by then is either done, or has been read to its end and its records processed.
     *
     * @throws TimeoutException if that takes longer than {@code timeout}; the message says which shards are behind
     */
    public void awaitDrained(Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long generation = drainGeneration.incrementAndGet();
        List<ShardWorker> workers = new ArrayList<>();
        lock.lock();
        try {
            if (state != State.RUNNING) {
                throw new IllegalStateException("the poller is not running");
            }
            discoveryRequested = true;
            discover.signalAll();
            shards.values().stream().filter(entry -> entry.worker != null).forEach(entry -> workers.add(entry.worker));
        } finally {
            lock.unlock();
        }
        // A worker pausing between polls would otherwise only notice the drain after its poll interval.
        workers.forEach(ShardWorker::wakeUp);
        lock.lock();
        try {
            while (!drainedAt(generation)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new TimeoutException("stream " + streamArn + " not drained within " + timeout + ": "
                            + behind(generation));
                }
                if (state != State.RUNNING) {
                    throw new IllegalStateException("the poller was closed while draining");
                }
                progress.awaitNanos(remaining);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Counters and the progress of each shard. */
    public PollerSnapshot snapshot() {
        List<PollerSnapshot.ShardProgress> progress = new ArrayList<>();
        lock.lock();
        try {
            for (ShardEntry entry : shards.values()) {
                ShardWorker worker = entry.worker;
                String checkpoint = worker != null ? worker.checkpoint() : entry.checkpoint;
                Duration lag = worker != null && entry.status == PollerSnapshot.ShardStatus.PROCESSING
                        ? worker.lag() : Duration.ZERO;
                progress.add(new PollerSnapshot.ShardProgress(entry.shardId, entry.parentShardId, entry.status,
                        checkpoint, lag));
            }
        } finally {
            lock.unlock();
        }
        return new PollerSnapshot(metrics.invocations(), metrics.recordsDelivered(), metrics.recordsProcessed(),
                metrics.retries(), metrics.batchesDiscarded(), metrics.recordsDiscarded(), progress);
    }

    /**
     * Stops reading. Invocations in flight finish (up to the shutdown timeout, then their threads are interrupted);
     * records not yet checkpointed are delivered again by the next poller on the same checkpoint store. Idempotent.
     */
    @Override
    public void close() {
        List<Thread> threads = new ArrayList<>();
        List<ShardWorker> workers = new ArrayList<>();
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            boolean wasRunning = state == State.RUNNING;
            state = State.CLOSED;
            stopping = true;
            discover.signalAll();
            progress.signalAll();
            if (!wasRunning) {
                return;
            }
            threads.add(coordinator);
            for (ShardEntry entry : shards.values()) {
                if (entry.thread != null) {
                    threads.add(entry.thread);
                    workers.add(entry.worker);
                }
            }
        } finally {
            lock.unlock();
        }
        workers.forEach(ShardWorker::wakeUp);
        long deadline = System.nanoTime() + shutdownTimeout.toNanos();
        boolean interrupted = false;
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                LOG.warn("{} did not stop within {}; interrupting it", thread.getName(), shutdownTimeout);
                thread.interrupt();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        LOG.info("stopped polling stream {}", streamArn);
    }

    private void coordinate() {
        while (!stopping) {
            long generation = drainGeneration.get();
            try {
                List<Shard> listed = describeShards();
                reconcile(listed, generation);
            } catch (SdkException e) {
                describeFailures++;
                if (describeFailures == 1) {
                    LOG.warn("DescribeStream {} failed, retrying: {}", streamArn, e.toString());
                }
            } catch (RuntimeException e) {
                LOG.error("discovering the shards of {} failed", streamArn, e);
            }
            lock.lock();
            try {
                long deadline = System.nanoTime() + discoveryInterval.toNanos();
                while (!discoveryRequested && !stopping) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        break;
                    }
                    discover.awaitNanos(remaining);
                }
                discoveryRequested = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    private List<Shard> describeShards() {
        List<Shard> listed = new ArrayList<>();
        String exclusiveStart = null;
        do {
            String start = exclusiveStart;
            DescribeStreamResponse response = streams.describeStream(request -> request
                    .streamArn(streamArn)
                    .exclusiveStartShardId(start));
            listed.addAll(response.streamDescription().shards());
            exclusiveStart = response.streamDescription().lastEvaluatedShardId();
        } while (exclusiveStart != null);
        if (describeFailures > 0) {
            LOG.info("DescribeStream {} works again after {} failures", streamArn, describeFailures);
            describeFailures = 0;
        }
        return listed;
    }

    /** Tracks new shards and starts a worker for each shard whose parent is done. */
    private void reconcile(List<Shard> listed, long generation) {
        lock.lock();
        try {
            if (stopping) {
                return;
            }
            List<String> listedIds = new ArrayList<>();
            for (Shard shard : listed) {
                listedIds.add(shard.shardId());
                if (!shards.containsKey(shard.shardId())) {
                    ShardCheckpoint saved = initialCheckpoints.get(shard.shardId());
                    ShardEntry entry = new ShardEntry(shard.shardId(), shard.parentShardId(),
                            saved == null ? null : saved.sequenceNumber());
                    if (saved != null && saved.done()) {
                        entry.status = PollerSnapshot.ShardStatus.DONE;
                    }
                    shards.put(shard.shardId(), entry);
                }
            }
            for (ShardEntry entry : shards.values()) {
                if (entry.status == PollerSnapshot.ShardStatus.WAITING_FOR_PARENT && parentDone(entry, listedIds)) {
                    startWorker(entry);
                }
            }
            describedGeneration = Math.max(describedGeneration, generation);
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A parent that is no longer listed was trimmed from the stream (after 24 hours): nothing of it is left to wait
     * for, as on AWS.
     */
    private boolean parentDone(ShardEntry entry, List<String> listedIds) {
        if (entry.parentShardId == null) {
            return true;
        }
        ShardEntry parent = shards.get(entry.parentShardId);
        if (parent == null) {
            return !listedIds.contains(entry.parentShardId);
        }
        return parent.status == PollerSnapshot.ShardStatus.DONE;
    }

    private void startWorker(ShardEntry entry) {
        ShardWorker worker = new ShardWorker(streamArn, entry.shardId, entry.checkpoint, streams, settings,
                pollInterval, backoff, checkpoints, clock, new WorkerCallbacks());
        worker.processor(new BatchProcessor(entry.shardId, streamArn, functionArn, settings, invoker, destination,
                clock, backoff, metrics, warnedIgnoredFailures));
        Thread thread = new Thread(() -> runWorker(entry, worker), "stream-poller-" + entry.shardId);
        thread.setDaemon(true);
        entry.worker = worker;
        entry.thread = thread;
        entry.status = PollerSnapshot.ShardStatus.PROCESSING;
        LOG.debug("shard {}: processing from {}", entry.shardId,
                entry.checkpoint == null ? "its oldest record" : "after " + entry.checkpoint);
        thread.start();
    }

    private void runWorker(ShardEntry entry, ShardWorker worker) {
        try {
            worker.run();
        } catch (RuntimeException | Error e) {
            // A bug, not a failure of the function (those are handled in BatchProcessor). The shard is handed back to
            // the coordinator, which starts a new worker at the checkpoint on its next round.
            LOG.error("shard {}: the worker failed; restarting it from {}", entry.shardId, worker.checkpoint(), e);
            lock.lock();
            try {
                if (entry.status == PollerSnapshot.ShardStatus.PROCESSING) {
                    entry.status = PollerSnapshot.ShardStatus.WAITING_FOR_PARENT;
                    entry.checkpoint = worker.checkpoint();
                    entry.worker = null;
                    entry.thread = null;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private boolean drainedAt(long generation) {
        if (describedGeneration < generation) {
            return false;
        }
        for (ShardEntry entry : shards.values()) {
            boolean drained = entry.status == PollerSnapshot.ShardStatus.DONE
                    || entry.status == PollerSnapshot.ShardStatus.PROCESSING
                    && entry.worker.caughtUpGeneration() >= generation;
            if (!drained) {
                return false;
            }
        }
        return true;
    }

    private String behind(long generation) {
        if (describedGeneration < generation) {
            return "the stream could not be described";
        }
        List<String> behind = new ArrayList<>();
        for (ShardEntry entry : shards.values()) {
            if (entry.status == PollerSnapshot.ShardStatus.WAITING_FOR_PARENT) {
                behind.add(entry.shardId + " waits for its parent " + entry.parentShardId);
            } else if (entry.status == PollerSnapshot.ShardStatus.PROCESSING
                    && entry.worker.caughtUpGeneration() < generation) {
                behind.add(entry.shardId + " is processing, checkpoint " + entry.worker.checkpoint());
            }
        }
        return String.join("; ", behind);
    }

    /** The workers' view of the poller. */
    private final class WorkerCallbacks implements ShardWorker.Poller {
        @Override
        public boolean stopping() {
            return stopping;
        }

        @Override
        public long drainGeneration() {
            return drainGeneration.get();
        }

        @Override
        public void progressed() {
            lock.lock();
            try {
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void shardDone(ShardWorker worker) {
            lock.lock();
            try {
                ShardEntry entry = shards.get(worker.shardId());
                entry.status = PollerSnapshot.ShardStatus.DONE;
                entry.checkpoint = worker.checkpoint();
                // Its children may start now rather than at the next discovery.
                discoveryRequested = true;
                discover.signalAll();
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Configures a {@link StreamPoller}; the stream, the invoker and the failure destination are required. */
    public static final class Builder {
        private DynamoDbStreamsClient streams;
        private String streamArn;
        private BatchInvoker invoker;
        private FailureDestination destination;
        private EsmSettings settings = EsmSettings.defaults();
        private CheckpointStore checkpoints = new InMemoryCheckpointStore();
        private String functionName = "stream-consumer";
        private Clock clock = Clock.systemUTC();
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Duration discoveryInterval = DEFAULT_DISCOVERY_INTERVAL;
        private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
        private Duration maxRetryBackoff = DEFAULT_MAX_RETRY_BACKOFF;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

        private Builder() {
        }

        public Builder streamsClient(DynamoDbStreamsClient value) {
            this.streams = value;
            return this;
        }

        public Builder streamArn(String value) {
            this.streamArn = value;
            return this;
        }

        public Builder invoker(BatchInvoker value) {
            this.invoker = value;
            return this;
        }

        public Builder failureDestination(FailureDestination value) {
            this.destination = value;
            return this;
        }

        /** Default: {@link EsmSettings#defaults()}. */
        public Builder settings(EsmSettings value) {
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** Default: in memory, so every poller starts at the oldest record. */
        public Builder checkpointStore(CheckpointStore value) {
            this.checkpoints = Objects.requireNonNull(value, "checkpointStore");
            return this;
        }

        /** The function's name, for its ARN in failure records and logs. */
        public Builder functionName(String value) {
            this.functionName = Objects.requireNonNull(value, "functionName");
            return this;
        }

        /** The clock records' ages and lags are measured with. */
        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** How long a shard worker waits after a read that found nothing new. */
        public Builder pollInterval(Duration value) {
            this.pollInterval = positive(value, "pollInterval");
            return this;
        }

        /** How often the stream is described to find new shards. */
        public Builder discoveryInterval(Duration value) {
            this.discoveryInterval = positive(value, "discoveryInterval");
            return this;
        }

        /** The wait before the first retry of a batch, doubled for each further one up to {@code max}. */
        public Builder retryBackoff(Duration initial, Duration max) {
            if (initial.isNegative() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("retry backoff needs 0 <= initial <= max, not " + initial + ", "
                        + max);
            }
            this.retryBackoff = initial;
            this.maxRetryBackoff = max;
            return this;
        }

        public Builder shutdownTimeout(Duration value) {
            this.shutdownTimeout = positive(value, "shutdownTimeout");
            return this;
        }

        public StreamPoller build() {
            return new StreamPoller(this);
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, not " + value);
            }
            return value;
        }
    }
}
