package io.tally.stream.engine;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * The stream processor's meters. Micrometer keeps the engine independent of where metrics go (CloudWatch EMF in
 * Lambda, a simple registry in tests).
 */
public final class StreamMetrics {
    public static final String RECORDS = "tally.stream.records";
    public static final String RECORDS_SKIPPED = "tally.stream.records.skipped";
    public static final String DERIVED_WRITES = "tally.stream.derived.writes";
    /**
     * Per batch, the write units of its most costly derived write: the size of the largest item it wrote, in KB
     * rounded up (DynamoDB refuses an item over 400 KB). Flushed as {@code .max}, {@code .sum} and {@code .count}.
     */
    public static final String MAX_WRITE_UNITS = "tally.stream.derived.maxwriteunits";
    /** Write units above which a derived item is logged as large: 100 KB, a quarter of DynamoDB's limit. */
    public static final int LARGE_ITEM_WRITE_UNITS = 100;
    public static final String FAILURES = "tally.stream.failures";
    public static final String POISON = "tally.stream.poison";
    public static final String EVENTS_PUBLISHED = "tally.stream.events.published";
    public static final String EVENTS_FAILED = "tally.stream.events.failed";
    public static final String EVENTS_DEAD_LETTERED = "tally.stream.events.deadlettered";
    public static final String WRITES_DEAD_LETTERED = "tally.stream.derived.deadlettered";
    public static final String GUARD = "tally.stream.guard";
    public static final String COALESCING_RATIO = "tally.stream.coalescing.ratio";
    public static final String BATCH_DURATION = "tally.stream.batch.duration";
    public static final String LAG = "tally.stream.lag";
    public static final String CASCADE_DELETES = "tally.stream.cascade.deletes";

    private final MeterRegistry registry;
    private final DistributionSummary coalescingRatio;
    private final DistributionSummary maxWriteUnits;
    private final Timer batchDuration;
    private final Timer lag;

    public StreamMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.coalescingRatio = DistributionSummary.builder(COALESCING_RATIO)
                .description("records per derived write request, per batch")
                .register(registry);
        this.maxWriteUnits = DistributionSummary.builder(MAX_WRITE_UNITS)
                .description("per batch, the write units of its most costly derived write (the largest item, in KB)")
                .register(registry);
        this.batchDuration = Timer.builder(BATCH_DURATION).register(registry);
        this.lag = Timer.builder(LAG)
                .description("time from the change of a base item to its processing")
                .register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** One record received, by event name and entity type ({@code none} or {@code unknown} when it has none). */
    void record(String eventName, String entityType) {
        registry.counter(RECORDS, "eventName", String.valueOf(eventName), "entityType", entityType).increment();
    }

    /** A record that derives nothing: an echo of a derived write or a type without a derivation. */
    void skipped(String reason) {
        registry.counter(RECORDS_SKIPPED, "reason", reason).increment();
    }

    /** One request to the derived store. */
    void derivedWrite() {
        registry.counter(DERIVED_WRITES).increment();
    }

    /** The write units of the batch's most costly derived write (0: none was reported, nothing recorded). */
    void maxWriteUnits(int units) {
        if (units > 0) {
            maxWriteUnits.record(units);
        }
    }

    /** Base items a cascade removed (none when an earlier delivery of its record had removed them). */
    void cascadeDeletes(int count) {
        registry.counter(CASCADE_DELETES).increment(count);
    }

    /** A write that failed (kind {@code derived-write}, {@code dead-letter}, {@code cascade}) and fails its record. */
    void failure(String kind) {
        registry.counter(FAILURES, "kind", kind).increment();
    }

    void poison() {
        registry.counter(POISON).increment();
    }

    void eventsPublished(int count) {
        registry.counter(EVENTS_PUBLISHED).increment(count);
    }

    void eventsFailed(int count) {
        registry.counter(EVENTS_FAILED).increment(count);
    }

    /** Derived writes DynamoDB refused for good, given up on and filed as dead letters. */
    void writesDeadLettered(int count) {
        registry.counter(WRITES_DEAD_LETTERED).increment(count);
    }

    /** Events filed as a dead letter: refused for good by the bus, or given up on after repeated failures. */
    void eventsDeadLettered(int count) {
        registry.counter(EVENTS_DEAD_LETTERED).increment(count);
    }

    /**
     * A batch refused by the shard cursor before any write: {@code past-failure} (a delivery after the shard's
     * pending failure), {@code held} (another invocation holds the shard) or {@code unavailable} (the cursor could
     * not be read).
     */
    void guard(String reason) {
        registry.counter(GUARD, "reason", reason).increment();
    }

    void coalescing(int records, int writeRequests) {
        if (writeRequests > 0) {
            coalescingRatio.record((double) records / writeRequests);
        }
    }

    void lag(Duration duration) {
        lag.record(duration.isNegative() ? Duration.ZERO : duration);
    }

    void batchDuration(Duration duration) {
        batchDuration.record(duration);
    }
}
