package io.tally.bench.model;

import io.tally.bench.aws.LatencyModel;
import java.util.Arrays;
import java.util.Random;
import java.util.random.RandomGenerator;

/**
 * The stream's own delay: how long after a write is acknowledged its record becomes readable from the shard.
 *
 * <p>The source is a published measurement of DynamoDB Streams to a Lambda function through an event source mapping
 * (Bite-Sized Serverless, "Serverless Messaging: Latency Compared", eu-west-1, September 2022: 1,024 messages, from
 * the producer's timestamp to the consumer's receipt): p10 118 ms, p50 213 ms, p90 341 ms, p99 552 ms. That figure
 * already holds the mapping's own wait for its next poll of an idle shard (four polls a second) and its GetRecords
 * call, which the model draws apart. So the delay is <em>calibrated</em>: a log-normal whose p50 and p99 are chosen
 * so that, on an idle shard, the delay plus the wait for the next poll (uniform over the 250 ms between polls) plus
 * one GetRecords call gives the published p50 and p99 ({@link #calibrated}). The published p10 and p90 are left to
 * check the fit with ({@link #fit}).
 */
public final class StreamDelay {
    /** The published percentiles, write to invocation, in milliseconds. */
    public static final double PUBLISHED_P10 = 118;
    public static final double PUBLISHED_P50 = 213;
    public static final double PUBLISHED_P90 = 341;
    public static final double PUBLISHED_P99 = 552;
    public static final String SOURCE = "Bite-Sized Serverless, \"Serverless Messaging: Latency Compared\""
            + " (eu-west-1, September 2022; 1,024 messages): DynamoDB Streams to a Lambda event source mapping p10 118"
            + " ms, p50 213 ms, p90 341 ms, p99 552 ms, the mapping's poll wait included";
    private static final int SAMPLES = 100_000;

    private final LatencyModel.Operation delay;

    private StreamDelay(LatencyModel.Operation delay) {
        this.delay = delay;
    }

    /** The delay with these figures (no calibration). */
    public static StreamDelay of(double p50Millis, double p99Millis) {
        return new StreamDelay(new LatencyModel.Operation("DynamoDB Streams", "readable", p50Millis, p99Millis,
                SOURCE));
    }

    /**
     * The delay calibrated against the published measurement, given the mapping's idle poll interval and its
     * GetRecords call: fixed-seed draws, the delay's p50 and p99 moved in proportion until the sum's match the
     * published ones within 0.5%.
     */
    public static StreamDelay calibrated(double idlePollMillis, LatencyModel.Operation getRecords) {
        double p50 = PUBLISHED_P50 / 2;
        double p99 = PUBLISHED_P99 / 2;
        for (int round = 0; round < 60; round++) {
            double[] fit = of(p50, p99).endToEnd(idlePollMillis, getRecords);
            double e50 = fit[1];
            double e99 = fit[3];
            if (Math.abs(e50 / PUBLISHED_P50 - 1) < 0.005 && Math.abs(e99 / PUBLISHED_P99 - 1) < 0.005) {
                break;
            }
            p50 = Math.max(1, p50 * PUBLISHED_P50 / e50);
            p99 = Math.max(p50, p99 * PUBLISHED_P99 / e99);
        }
        return of(p50, p99);
    }

    /**
     * The model's write-to-invocation time on an idle shard: p10, p50, p90 and p99 of the delay, the wait for the next
     * poll and one GetRecords call (fixed seed), in milliseconds.
     */
    public double[] endToEnd(double idlePollMillis, LatencyModel.Operation getRecords) {
        Random random = new Random(41);
        double[] sums = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            sums[i] = drawNanos(random) / 1e6 + random.nextDouble() * idlePollMillis + getRecords.drawNanos(random) / 1e6;
        }
        Arrays.sort(sums);
        return new double[] {sums[SAMPLES / 10], sums[SAMPLES / 2], sums[SAMPLES * 9 / 10], sums[SAMPLES * 99 / 100]};
    }

    /** The published p10, p50, p90 and p99 beside the model's, for the page. */
    public double[][] fit(double idlePollMillis, LatencyModel.Operation getRecords) {
        return new double[][] {{PUBLISHED_P10, PUBLISHED_P50, PUBLISHED_P90, PUBLISHED_P99},
                endToEnd(idlePollMillis, getRecords)};
    }

    public double p50Millis() {
        return delay.p50Millis();
    }

    public double p99Millis() {
        return delay.p99Millis();
    }

    /** One record's delay, in nanoseconds. */
    public long drawNanos(RandomGenerator random) {
        return delay.drawNanos(random);
    }
}
