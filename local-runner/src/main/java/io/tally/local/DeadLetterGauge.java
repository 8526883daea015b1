package io.tally.local;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tally.local.maintenance.DeadLetterQueries;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * {@code tally.deadletters} in {@code GET /metrics}: how many dead letters the table holds (those filed on the last
 * {@link DeadLetterQueries#DEFAULT_DAYS} days: one counting query per partition of each day, no item read). The count
 * is kept for {@link #MAX_AGE}, so that the dashboard's polling does not turn into a stream of queries. NaN when the
 * table cannot be read.
 */
final class DeadLetterGauge {
    static final String NAME = "tally.deadletters";
    /** A count is 17 queries per day, 544 in all: kept long enough that the dashboard's polling stays cheap. */
    static final Duration MAX_AGE = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterGauge.class);

    private final DeadLetterQueries letters;
    private final LongSupplier nanoTime;
    private final long maxAgeNanos;
    private long countedAt;
    private double count = Double.NaN;

    DeadLetterGauge(DeadLetterQueries letters, Duration maxAge, LongSupplier nanoTime) {
        this.letters = Objects.requireNonNull(letters, "letters");
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = nanoTime;
    }

    static void register(MeterRegistry registry, DeadLetterQueries letters) {
        DeadLetterGauge gauge = new DeadLetterGauge(letters, MAX_AGE, System::nanoTime);
        // Strong: nothing else holds the gauge's object, and a weakly held one is collected (the gauge then reads NaN).
        Gauge.builder(NAME, gauge, DeadLetterGauge::value).strongReference(true)
                .description("dead letters in the table (filed on the last " + DeadLetterQueries.DEFAULT_DAYS
                        + " days); tally-local dead-letters list shows them")
                .register(registry);
    }

    synchronized double value() {
        long now = nanoTime.getAsLong();
        if (Double.isNaN(count) || now - countedAt >= maxAgeNanos) {
            try {
                count = letters.count(DeadLetterQueries.DEFAULT_DAYS);
            } catch (SdkException e) {
                LOG.debug("dead letters not counted: {}", e.toString());
                count = Double.NaN;
            }
            countedAt = now;
        }
        return count;
    }
}
