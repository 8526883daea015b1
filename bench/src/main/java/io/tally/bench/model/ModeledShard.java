package io.tally.bench.model;

import io.tally.bench.aws.ArrivingShard;
import io.tally.bench.aws.AwsLatencyInterceptor;
import io.tally.bench.aws.LatencyModel;
import io.tally.local.stream.BatchInvoker;
import io.tally.local.stream.InvocationResult;
import io.tally.local.stream.StreamRecordFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * One stream shard and the event source mapping that reads it, in the model's time ({@code scale} times slower than
 * real time): base records arrive at a steady rate (or all at once: a backlog) and become readable a stream delay
 * later ({@link StreamDelay}), in order; the function's own writes come back as records too ({@link Echoes}), which the mapping reads and its filter drops. The
 * mapping, with {@code ParallelizationFactor: 1}: one invocation at a time; each poll is one GetRecords call (a drawn
 * latency) that reads up to 1,000 readable records and drops those the mapping's filter refuses; with a batching
 * window of 0 it invokes as soon as a poll kept records, else when the batch is full or the window (from the first
 * record kept) has passed, polling on meanwhile; a poll that reads nothing waits for the next of four polls a second
 * (Lambda Developer Guide, "Using AWS Lambda with Amazon DynamoDB"). An invocation that fails is made again with the
 * same records. Records get the shard's next sequence number when read, and the model's time as their creation time
 * (the tumbling window's clock).
 */
final class ModeledShard {
    private static final Logger LOG = LoggerFactory.getLogger(ModeledShard.class);
    /** The mapping's pause between polls of an idle shard (the AWS-latency mode's). */
    static final Duration IDLE_POLL_INTERVAL = ArrivingShard.IDLE_POLL_INTERVAL;
    /** The most records one GetRecords call returns. */
    static final int GET_RECORDS_LIMIT = 1_000;

    /**
     * The mapping and the stream.
     *
     * @param batchSize     {@code BatchSize}
     * @param windowSeconds {@code MaximumBatchingWindowInSeconds}
     * @param scale         how many times slower than the model real time runs
     */
    record Mapping(int batchSize, double windowSeconds, double scale, StreamDelay delay,
                   LatencyModel.Operation getRecords, StreamRecordFilter filter, String shardId, String streamArn) {
    }

    /**
     * What one run gave, in the model's time.
     *
     * @param freshnessMillis per base record that arrived, its freshness (write to the return of the invocation that
     *                        processed it); for one not processed by the deadline, how long it had waited then
     * @param echoed          echoed records the mapping read
     * @param filteredOut     records the filter dropped (the echo, mostly)
     * @param failedInvocations invocations that failed and were made again
     */
    record Outcome(double rate, int arrived, int processed, double seconds, List<Double> freshnessMillis,
                   long invocations, double busySeconds, double drainSeconds, long echoed, long filteredOut,
                   long failedInvocations) {
        double recordsPerSec() {
            return seconds > 0 ? processed / seconds : 0;
        }

        boolean keptUp() {
            // As the AWS-latency mode judges: the last record within a second of its arrival.
            return processed == arrived && (Double.isInfinite(rate)
                    || drainSeconds <= ArrivingShard.Outcome.KEPT_UP_WITHIN_SECONDS);
        }
    }

    private final Mapping mapping;
    private final BatchInvoker invoker;
    private final Echoes echo;
    private final Random random;
    private long sequence;

    /** @param firstSequence the sequence number of the shard's first record */
    ModeledShard(Mapping mapping, BatchInvoker invoker, Echoes echo, long seed, long firstSequence) {
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.echo = echo;
        this.random = new Random(seed);
        this.sequence = firstSequence;
    }

    /** The sequence number the shard's next record gets. */
    long nextSequence() {
        return sequence;
    }

    /**
     * Runs {@code base} through the function: at {@code rate} records a second for {@code arrivals}, or all at once
     * when the rate is infinite, and stops {@code deadline} after the arrivals end.
     */
    Outcome run(List<Record> base, double rate, Duration arrivals, Duration deadline) {
        double scale = mapping.scale();
        boolean backlog = Double.isInfinite(rate);
        int count = backlog ? base.size() : (int) Math.round(rate * arrivals.toNanos() / 1e9);
        if (count < 1 || count > base.size()) {
            throw new IllegalArgumentException(count + " records would arrive; there are " + base.size());
        }
        long start = System.nanoTime();
        Instant modelEpoch = Instant.now();
        long[] arrival = new long[count];
        long[] readable = new long[count];
        for (int i = 0; i < count; i++) {
            arrival[i] = start + (backlog ? 0 : Math.round(i * 1e9 / (rate / scale)));
            long delayed = arrival[i] + Math.round(mapping.delay().drawNanos(random) * scale);
            readable[i] = Math.max(i == 0 ? 0 : readable[i - 1], delayed);
        }
        long stop = start + Math.round(((backlog ? 0 : arrivals.toNanos()) + deadline.toNanos()) * scale);
        long[] done = new long[count];
        List<Record> pending = new ArrayList<>();
        List<Integer> pendingBase = new ArrayList<>();
        int nextBase = 0;
        int processed = 0;
        long windowOpened = -1;
        long invocations = 0;
        long failures = 0;
        long busy = 0;
        long lastReturn = start;
        long echoed = 0;
        long filtered = 0;
        long idle = Math.round(IDLE_POLL_INTERVAL.toNanos() * scale);
        while (processed < count && System.nanoTime() < stop) {
            long polled = System.nanoTime();
            AwsLatencyInterceptor.pause(Math.round(mapping.getRecords().drawNanos(random) * scale));
            long now = System.nanoTime();
            int read = 0;
            while (read < GET_RECORDS_LIMIT) {
                boolean baseReady = nextBase < count && readable[nextBase] <= now;
                long nextEcho = echo == null ? -1 : echo.peek(now);
                if (!baseReady && nextEcho < 0) {
                    break;
                }
                read++;
                if (!baseReady || (nextEcho >= 0 && nextEcho < readable[nextBase])) {
                    // An echo of the function's own writes: read, and dropped by the filter.
                    echo.poll();
                    echoed++;
                    filtered++;
                    continue;
                }
                int baseIndex = nextBase++;
                Record numbered = numbered(base.get(baseIndex),
                        modelEpoch.plusNanos(Math.round((arrival[baseIndex] - start) / scale)));
                if (!mapping.filter().keeps(numbered, mapping.streamArn())) {
                    filtered++;
                    continue;
                }
                pending.add(numbered);
                pendingBase.add(baseIndex);
            }
            if (!pending.isEmpty() && windowOpened < 0) {
                windowOpened = now;
            }
            boolean full = pending.size() >= mapping.batchSize();
            boolean windowPassed = windowOpened >= 0
                    && now - windowOpened >= Math.round(mapping.windowSeconds() * 1e9 * scale);
            if (!pending.isEmpty() && (mapping.windowSeconds() == 0 || full || windowPassed)) {
                int size = Math.min(mapping.batchSize(), pending.size());
                long invoked = System.nanoTime();
                InvocationResult result = invoker.invoke(mapping.shardId(), List.copyOf(pending.subList(0, size)));
                lastReturn = System.nanoTime();
                busy += lastReturn - invoked;
                invocations++;
                if (!result.isSuccess()) {
                    failures++;
                    LOG.warn("model: an invocation failed and is made again: {}", result);
                    continue;
                }
                for (int i = 0; i < size; i++) {
                    if (pendingBase.get(i) >= 0) {
                        done[pendingBase.get(i)] = lastReturn;
                        processed++;
                    }
                }
                pending.subList(0, size).clear();
                pendingBase.subList(0, size).clear();
                windowOpened = pending.isEmpty() ? -1 : lastReturn;
            } else if (read == 0) {
                long wait = pending.isEmpty() ? polled + idle - System.nanoTime()
                        : Math.min(idle, windowOpened + Math.round(mapping.windowSeconds() * 1e9 * scale) - now);
                AwsLatencyInterceptor.pause(wait);
            }
        }
        long end = System.nanoTime();
        long lastArrival = arrival[count - 1];
        double drain = processed == count ? Math.max(0, lastReturn - lastArrival) / 1e9 / scale : Double.POSITIVE_INFINITY;
        List<Double> freshness = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            freshness.add(((done[i] != 0 ? done[i] : end) - arrival[i]) / 1e6 / scale);
        }
        return new Outcome(rate, count, processed, (lastReturn - start) / 1e9 / scale, freshness, invocations,
                busy / 1e9 / scale, drain, echoed, filtered, failures);
    }

    private Record numbered(Record record, Instant created) {
        String number = String.format("%021d", sequence++);
        return record.toBuilder()
                .dynamodb(record.dynamodb().toBuilder().sequenceNumber(number).approximateCreationDateTime(created)
                        .build())
                .build();
    }
}
