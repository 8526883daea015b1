package io.tally.bench.aws;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One stream shard whose records arrive at a steady rate, handed to a processor as Lambda's event source mapping
 * does with {@code ParallelizationFactor: 1} and {@code MaximumBatchingWindowInSeconds: 0}: one invocation at a time;
 * each poll (a GetRecords call, {@code getRecords}) takes every record that has arrived, up to the batch size; a poll
 * that finds records invokes the function at once and polls again when it returns; a poll that finds none waits for
 * the next of four polls a second (the Lambda Developer Guide, "Using AWS Lambda with Amazon DynamoDB": Lambda polls
 * shards "at a base rate of 4 times per second").
 *
 * <p>A record's freshness is the time from its arrival (its write acknowledged) to the return of the invocation that
 * processed it. The stream's own delay between a write and its record becoming readable is not modelled: AWS
 * publishes no figure for it.
 *
 * <p>Time may run slower by a {@code scale}: records arrive {@code scale} times less often, idle polls wait
 * {@code scale} times longer and the run lasts {@code scale} times as long, while the caller makes every call and the
 * processor's own work last {@code scale} times as long too ({@link AwsLatencyInterceptor}); the outcome is in the
 * model's time, every duration divided by the scale.
 */
public final class ArrivingShard {
    /** The mapping's pause between polls of an idle shard. */
    public static final Duration IDLE_POLL_INTERVAL = Duration.ofMillis(250);

    /**
     * What one run gave.
     *
     * @param rate            records a second that arrived, or infinity when all were there at the start (a backlog)
     * @param arrived         records that arrived
     * @param processed       records processed before the run's deadline
     * @param seconds         from the first arrival to the last invocation's return
     * @param freshnessMillis per arrived record, its freshness; for a record not processed by the deadline, the time
     *                        it had waited then (a lower bound)
     * @param invocations     invocations of the processor
     * @param busySeconds     time spent inside the processor's invocations
     * @param drainSeconds    from the last arrival to the return of the invocation that processed the last record
     *                        (infinite when some record was not processed)
     */
    public record Outcome(double rate, int arrived, int processed, double seconds, List<Double> freshnessMillis,
                          long invocations, double busySeconds, double drainSeconds) {
        /** How long after the last arrival the processor may finish and still have kept up. */
        public static final double KEPT_UP_WITHIN_SECONDS = 1.0;

        public double recordsPerSec() {
            return seconds > 0 ? processed / seconds : 0;
        }

        /**
         * Every record processed, at a steady rate the last within {@value #KEPT_UP_WITHIN_SECONDS} s of its arrival:
         * a processor slower than the arrivals ends its run with a backlog that takes longer.
         */
        public boolean keptUp() {
            return processed == arrived && (Double.isInfinite(rate) || drainSeconds <= KEPT_UP_WITHIN_SECONDS);
        }
    }

    private ArrivingShard() {
    }

    /**
     * Runs {@code records} through {@code process}.
     *
     * @param rate       records a second; {@code Double.POSITIVE_INFINITY} puts every record there at the start
     * @param arrivals   how long records arrive (at a finite rate: {@code rate * arrivals} of them)
     * @param deadline   how long after the arrivals end the processor may still work
     * @param getRecords one GetRecords call (it waits as long as one takes)
     */
    public static <T> Outcome run(List<T> records, double rate, int batchSize, Duration arrivals, Duration deadline,
                                  Consumer<List<T>> process, Runnable getRecords) {
        return run(records, rate, batchSize, arrivals, deadline, process, getRecords, 1);
    }

    /**
     * Runs {@code records} through {@code process} with time running {@code scale} times slower: the rate, the
     * durations and the outcome are in the model's time.
     */
    public static <T> Outcome run(List<T> records, double rate, int batchSize, Duration arrivals, Duration deadline,
                                  Consumer<List<T>> process, Runnable getRecords, double scale) {
        Objects.requireNonNull(process, "process");
        if (!(rate > 0) || batchSize < 1 || !(scale >= 1)) {
            throw new IllegalArgumentException("rate and batch size must be positive, the scale at least 1");
        }
        boolean backlog = Double.isInfinite(rate);
        int count = backlog ? records.size() : (int) Math.round(rate * arrivals.toNanos() / 1e9);
        if (count > records.size() || count < 1) {
            throw new IllegalArgumentException(count + " records would arrive; there are " + records.size());
        }
        long start = System.nanoTime();
        long stop = start + (long) (((backlog ? 0 : arrivals.toNanos()) + deadline.toNanos()) * scale);
        double realRate = rate / scale;
        long[] done = new long[count];
        int next = 0;
        long invocations = 0;
        long busy = 0;
        long lastReturn = start;
        while (next < count && System.nanoTime() < stop) {
            long polled = System.nanoTime();
            getRecords.run();
            int arrived = backlog ? count : arrivedBy(System.nanoTime() - start, realRate, count);
            if (arrived > next) {
                int to = Math.min(arrived, next + batchSize);
                long invoked = System.nanoTime();
                process.accept(records.subList(next, to));
                lastReturn = System.nanoTime();
                busy += lastReturn - invoked;
                invocations++;
                for (int i = next; i < to; i++) {
                    done[i] = lastReturn;
                }
                next = to;
            } else {
                AwsLatencyInterceptor.pause(polled + (long) (IDLE_POLL_INTERVAL.toNanos() * scale) - System.nanoTime());
            }
        }
        long end = System.nanoTime();
        long lastArrival = start + (backlog ? 0 : (long) ((count - 1) * 1e9 / realRate));
        double drain = next == count ? Math.max(0, lastReturn - lastArrival) / 1e9 / scale : Double.POSITIVE_INFINITY;
        List<Double> freshness = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long arrival = start + (backlog ? 0 : (long) (i * 1e9 / realRate));
            freshness.add(((done[i] != 0 ? done[i] : end) - arrival) / 1e6 / scale);
        }
        return new Outcome(rate, count, next, (lastReturn - start) / 1e9 / scale, freshness, invocations,
                busy / 1e9 / scale, drain);
    }

    /** How many of the records have arrived {@code elapsedNanos} after the first (which arrives at 0). */
    static int arrivedBy(long elapsedNanos, double rate, int count) {
        if (elapsedNanos < 0) {
            return 0;
        }
        return (int) Math.min(count, (long) Math.floor(elapsedNanos / 1e9 * rate) + 1);
    }
}
