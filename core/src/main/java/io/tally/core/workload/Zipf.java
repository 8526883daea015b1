package io.tally.core.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Picks of an index below a size: uniform, or Zipf-distributed over the order (early indexes hot). */
public final class Zipf {
    private final Random random;
    private final double skew;
    /** Cumulative Zipf weights: entry i is the sum of 1/k^skew for k = 1..i+1. */
    private final List<Double> norms = new ArrayList<>();

    /** @param skew 0 for uniform picks, about 1.1 for a Zipf skew */
    public Zipf(Random random, double skew) {
        this.random = random;
        this.skew = skew;
    }

    /** Uniform, or Zipf-distributed over the list's order (early entries hot) by inverse transform. */
    public int index(int size) {
        if (skew <= 0 || size == 1) {
            return random.nextInt(size);
        }
        while (norms.size() < size) {
            int i = norms.size() + 1;
            norms.add((norms.isEmpty() ? 0 : norms.get(norms.size() - 1)) + 1 / Math.pow(i, skew));
        }
        double norm = norms.get(size - 1);
        double target = random.nextDouble() * norm;
        // The cumulative sums grow with the list, so a binary search finds the first at or above the target.
        int low = 0;
        int high = size - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (norms.get(mid) >= target) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
