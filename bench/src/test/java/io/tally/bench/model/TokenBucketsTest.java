package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenBucketsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aKeyTakesItsSavedSecondAndThenItsRate() {
        TokenBuckets buckets = new TokenBuckets(1_000, 1_000);
        int taken = 0;
        // 3,000 attempts spread evenly over one second: the saved 1,000 and the second's 1,000 go through.
        for (int i = 0; i < 3_000; i++) {
            if (buckets.takeOne(List.of("pk-a"), i * SECOND / 3_000)) {
                taken++;
            }
        }
        assertThat(taken).isBetween(1_990, 2_001);
        // Another key has its own bucket.
        assertThat(buckets.takeOne(List.of("pk-b"), SECOND)).isTrue();
    }

    @Test
    void aRequestOverSeveralKeysTakesFromAllOrFromNone() {
        TokenBuckets buckets = new TokenBuckets(10, 10);
        assertThat(buckets.take(Map.of("a", 10.0), 0)).isTrue();
        // "b" has units, "a" has none: nothing is taken from "b".
        assertThat(buckets.take(Map.of("a", 1.0, "b", 10.0), 0)).isFalse();
        assertThat(buckets.take(Map.of("b", 10.0), 0)).isTrue();
        // A tenth of a second later "a" has one unit again.
        assertThat(buckets.take(Map.of("a", 1.0), SECOND / 10)).isTrue();
        assertThat(buckets.take(Map.of("a", 1.0), SECOND / 10)).isFalse();
    }

    @Test
    void refusesABucketThatCannotHoldAUnit() {
        assertThatThrownBy(() -> new TokenBuckets(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBuckets(10, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
