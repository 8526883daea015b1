package io.tally.local.stream;

import io.tally.local.lambda.LocalLambdaContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a DynamoDB stream and invokes a function with its records the way the Lambda event source mapping does, for
 * running the stream processor locally against DynamoDB Local.
 *
 * <ul>
 *   <li>Shards are found with {@code DescribeStream}, again every {@link StreamPollerBuilder#discoveryInterval
 *       discovery interval} and whenever a shard is finished, so that the children of a rolled-over shard are picked
 *       up.</li>
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
 *
 * <p>The poller owns the lifecycle and the lock; {@link ShardDiscovery} describes the stream, {@link ShardLineage}
 * tracks the shards and their parents, a {@link ShardWorker} reads each shard and checkpoints it, and
 * {@link PollerMetrics} counts.
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

    private final String streamArn;
    private final EsmSettings settings;
    private final CheckpointStore checkpoints;
    private final BatchInvoker invoker;
    private final String functionArn;
    private final Duration shutdownTimeout;
    private final PollerMetrics metrics = new PollerMetrics();
    private final ShardWorkerFactory workerFactory;
    private final AtomicLong drainGeneration = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a shard catches up or finishes, or a discovery completes: what a drain waits for. */
    private final Condition progress = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private final ShardLineage shards = new ShardLineage();
    private final ShardDiscovery discovery;
    private volatile boolean stopping;
    private State state = State.NEW;
    private Thread coordinator;

    StreamPoller(StreamPollerBuilder builder) {
        DynamoDbStreamsClient streams = Objects.requireNonNull(builder.streams, "streamsClient");
        this.streamArn = Objects.requireNonNull(builder.streamArn, "streamArn");
        this.invoker = Objects.requireNonNull(builder.invoker, "invoker");
        FailureDestination destination = Objects.requireNonNull(builder.destination, "failureDestination");
        this.settings = builder.settings;
        this.checkpoints = builder.checkpoints;
        this.functionArn = "arn:aws:lambda:" + LocalLambdaContext.REGION + ":" + LocalLambdaContext.ACCOUNT_ID
                + ":function:" + builder.functionName;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.workerFactory = new ShardWorkerFactory(streams, streamArn, functionArn, settings, invoker, destination,
                checkpoints, builder.clock, builder.pollInterval,
                new BatchProcessor.Backoff(builder.retryBackoff, builder.maxRetryBackoff), metrics);
        this.discovery = new ShardDiscovery(streams, streamArn, builder.discoveryInterval, lock, () -> stopping,
                drainGeneration::get, this::reconcile);
    }

    public static StreamPollerBuilder builder() {
        return new StreamPollerBuilder();
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
            shards.resumeFrom(checkpoints.load(streamArn));
            coordinator = new Thread(discovery, "stream-poller");
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
            discovery.request();
            shards.entries().stream().filter(entry -> entry.worker != null).forEach(entry -> workers.add(entry.worker));
        } finally {
            lock.unlock();
        }
        // A worker pausing between polls would otherwise only notice the drain after its poll interval.
        workers.forEach(ShardWorker::wakeUp);
        lock.lock();
        try {
            while (!shards.drainedAt(generation)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new TimeoutException("stream " + streamArn + " not drained within " + timeout + ": "
                            + shards.behind(generation));
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
        List<PollerSnapshot.ShardProgress> progress;
        lock.lock();
        try {
            progress = shards.progress();
        } finally {
            lock.unlock();
        }
        return metrics.snapshot(progress);
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
            discovery.wakeUp();
            progress.signalAll();
            if (!wasRunning) {
                return;
            }
            threads.add(coordinator);
            for (ShardLineage.Entry entry : shards.entries()) {
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
        boolean stopped = true;
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                LOG.warn("{} did not stop within {}; interrupting it", thread.getName(), shutdownTimeout);
                thread.interrupt();
                stopped = false;
            }
        }
        if (stopped) {
            // No invocation in flight: the windows still open get their final invocation, as Lambda's do.
            try {
                invoker.endWindows();
            } catch (RuntimeException e) {
                LOG.warn("the final invocations of the open windows failed", e);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        LOG.info("stopped polling stream {}", streamArn);
    }

    /** Tracks new shards and starts a worker for each shard whose parent is done. */
    private void reconcile(List<Shard> listed, long generation) {
        lock.lock();
        try {
            if (stopping) {
                return;
            }
            shards.track(listed).forEach(this::startWorker);
            shards.described(generation);
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void startWorker(ShardLineage.Entry entry) {
        ShardWorker worker = workerFactory.create(entry.shardId, entry.checkpoint, new WorkerCallbacks());
        Thread thread = new Thread(() -> runWorker(entry, worker), "stream-poller-" + entry.shardId);
        thread.setDaemon(true);
        entry.worker = worker;
        entry.thread = thread;
        entry.status = PollerSnapshot.ShardStatus.PROCESSING;
        LOG.debug("shard {}: processing from {}", entry.shardId,
                entry.checkpoint == null ? "its oldest record" : "after " + entry.checkpoint);
        thread.start();
    }

    private void runWorker(ShardLineage.Entry entry, ShardWorker worker) {
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
                ShardLineage.Entry entry = shards.get(worker.shardId());
                entry.status = PollerSnapshot.ShardStatus.DONE;
                entry.checkpoint = worker.checkpoint();
                // Its children may start now rather than at the next discovery.
                discovery.request();
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
