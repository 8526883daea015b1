package io.tally.local.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The poller's coordinator: describes the stream every discovery interval, and at once when {@link #request asked}
 * to (a drain, a finished shard whose children may start), and hands the shards listed to the poller. Runs on a
 * thread of its own; shares the poller's lock.
 */
final class ShardDiscovery implements Runnable {
    /** The poller's logger: to the person reading the log, discovery is part of the poller. */
    private static final Logger LOG = LoggerFactory.getLogger(StreamPoller.class);

    /** What the poller does with a description of the stream. */
    interface Listener {
        /** The stream listed {@code shards}; the round began at drain generation {@code generation}. */
        void listed(List<Shard> shards, long generation);
    }

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final Duration interval;
    private final ReentrantLock lock;
    /** Signalled to make the coordinator describe the stream now. */
    private final Condition discover;
    private final BooleanSupplier stopping;
    private final LongSupplier drainGeneration;
    private final Listener listener;
    /** Guarded by {@link #lock}. */
    private boolean discoveryRequested;
    /** Only the coordinator's thread touches it. */
    private int describeFailures;

    ShardDiscovery(DynamoDbStreamsClient streams, String streamArn, Duration interval, ReentrantLock lock,
            BooleanSupplier stopping, LongSupplier drainGeneration, Listener listener) {
        this.streams = streams;
        this.streamArn = streamArn;
        this.interval = interval;
        this.lock = lock;
        this.discover = lock.newCondition();
        this.stopping = stopping;
        this.drainGeneration = drainGeneration;
        this.listener = listener;
    }

    /** Makes the coordinator describe the stream now rather than at the end of its interval. Hold the lock. */
    void request() {
        discoveryRequested = true;
        discover.signalAll();
    }

    /** Wakes the coordinator up so that it sees the poller stopping. Hold the lock. */
    void wakeUp() {
        discover.signalAll();
    }

    @Override
    public void run() {
        while (!stopping.getAsBoolean()) {
            long generation = drainGeneration.getAsLong();
            try {
                List<Shard> listed = describeShards();
                listener.listed(listed, generation);
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
                long deadline = System.nanoTime() + interval.toNanos();
                while (!discoveryRequested && !stopping.getAsBoolean()) {
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
}
