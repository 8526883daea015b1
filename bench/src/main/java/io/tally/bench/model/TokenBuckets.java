package io.tally.bench.model;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A token bucket per key: {@code rate} units a second, at most {@code capacity} saved up. How the model throttles a
 * DynamoDB partition past its write units a second and an account past its PutEvents quota. Time is the caller's
 * (the model's), in nanoseconds; a bucket starts full.
 */
final class TokenBuckets {
    private final double rate;
    private final double capacity;
    private final Map<String, double[]> buckets = new HashMap<>();

    /** @param rate units a second; @param capacity the most a bucket holds */
    TokenBuckets(double rate, double capacity) {
        if (!(rate > 0) || !(capacity >= 1)) {
            throw new IllegalArgumentException("a bucket needs a positive rate and a capacity of at least 1");
        }
        this.rate = rate;
        this.capacity = capacity;
    }

    /**
     * Takes {@code units} from every key's bucket if each holds them, else takes nothing: whether the request goes
     * through. A key named twice needs the sum of its units.
     */
    synchronized boolean take(Map<String, Double> unitsByKey, long nowNanos) {
        for (Map.Entry<String, Double> key : unitsByKey.entrySet()) {
            if (fill(key.getKey(), nowNanos)[0] < key.getValue()) {
                return false;
            }
        }
        for (Map.Entry<String, Double> key : unitsByKey.entrySet()) {
            buckets.get(key.getKey())[0] -= key.getValue();
        }
        return true;
    }

    /** {@link #take(Map, long)} of one unit from each key. */
    boolean takeOne(Collection<String> keys, long nowNanos) {
        Map<String, Double> units = new HashMap<>();
        for (String key : keys) {
            units.merge(key, 1.0, Double::sum);
        }
        return take(units, nowNanos);
    }

    private double[] fill(String key, long nowNanos) {
        double[] bucket = buckets.computeIfAbsent(key, k -> new double[] {capacity, nowNanos});
        double elapsed = Math.max(0, nowNanos - bucket[1]) / 1e9;
        bucket[0] = Math.min(capacity, bucket[0] + elapsed * rate);
        bucket[1] = Math.max(bucket[1], nowNanos);
        return bucket;
    }
}
