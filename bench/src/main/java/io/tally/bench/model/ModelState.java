package io.tally.bench.model;

import io.tally.bench.aws.LatencyModel;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * The state every client of a function process shares under the model ({@link ModelInterceptor}): the latency
 * draws, the throttles and what was counted. One per process, so that the SDK's global interceptors (one instance
 * per client) see one model; set from system properties at first, and replaced whole by the parent's
 * {@link FunctionMain#MODEL} request (the measured part after a warm-up):
 * <ul>
 *   <li>{@value #SCALE}: how many times slower time runs (its presence turns the model on);</li>
 *   <li>{@value #SEED}: the draws' seed;</li>
 *   <li>{@value #PARTITION_WRITE_UNITS}: the write units a second one partition key takes (default 1,000);</li>
 *   <li>{@value #PUT_EVENTS_PER_SECOND}: the PutEvents calls a second this function's share of the account's quota
 *   allows (default: no quota).</li>
 * </ul>
 */
final class ModelState {
    static final String SCALE = "tally.model.scale";
    static final String SEED = "tally.model.seed";
    static final String PARTITION_WRITE_UNITS = "tally.model.partitionWriteUnits";
    static final String PUT_EVENTS_PER_SECOND = "tally.model.putEventsPerSecond";

    private static volatile ModelState current;

    final double scale;
    final LatencyModel latency = LatencyModel.awsHeavyTailed();
    private final RandomGenerator random;
    private final long origin = System.nanoTime();
    /** Write units a second per partition key, a second's worth saved up at most. */
    final TokenBuckets partitions;
    /** PutEvents calls a second, a second's worth saved up at most; null without a quota. */
    final TokenBuckets putEvents;

    final DoubleAdder writeUnits = new DoubleAdder();
    final AtomicLong writesWithoutCapacity = new AtomicLong();
    final AtomicLong calls = new AtomicLong();
    final AtomicLong lateCalls = new AtomicLong();
    /** The real time the local services took to answer, and the real time the model drew for the same calls. */
    final AtomicLong localNanos = new AtomicLong();
    final AtomicLong drawnNanos = new AtomicLong();
    final AtomicLong throttledWrites = new AtomicLong();
    final AtomicLong throttledPutEvents = new AtomicLong();

    ModelState(double scale, long seed, double partitionWriteUnits, double putEventsPerSecond) {
        this.scale = scale;
        this.random = RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
        this.partitions = new TokenBuckets(partitionWriteUnits, partitionWriteUnits);
        this.putEvents = putEventsPerSecond > 0 ? new TokenBuckets(putEventsPerSecond, Math.max(1, putEventsPerSecond))
                : null;
    }

    /** The process's model, or null when {@value #SCALE} is not set (the interceptor then does nothing). */
    static ModelState get() {
        ModelState state = current;
        if (state == null && System.getProperty(SCALE) != null) {
            synchronized (ModelState.class) {
                if (current == null) {
                    current = new ModelState(Double.parseDouble(System.getProperty(SCALE)),
                            Long.getLong(SEED, 1), Double.parseDouble(System.getProperty(PARTITION_WRITE_UNITS, "1000")),
                            Double.parseDouble(System.getProperty(PUT_EVENTS_PER_SECOND, "0")));
                }
                state = current;
            }
        }
        return state;
    }

    /** Makes {@code state} the process's model (null: none, or the system properties' once asked again); for tests. */
    static synchronized void install(ModelState state) {
        current = state;
    }

    /** The model's time: nanoseconds since the process's model began, divided by the scale. */
    long modelNanos() {
        return Math.round((System.nanoTime() - origin) / scale);
    }

    /** A latency of the operation, in real nanoseconds (the draw times the scale). */
    long drawRealNanos(String service, String operation) {
        LatencyModel.Operation figures = latency.of(service, operation);
        synchronized (random) {
            return Math.round(figures.drawNanos(random) * scale);
        }
    }

    private long[] written = new long[1024];
    private int writtenCount;

    /** Notes {@code items} writes that succeeded now: the stream will echo each. */
    synchronized void wrote(int items) {
        long now = System.nanoTime();
        for (int i = 0; i < items; i++) {
            if (writtenCount == written.length) {
                written = java.util.Arrays.copyOf(written, written.length * 2);
            }
            written[writtenCount++] = now;
        }
    }

    /** When the writes noted since the last call succeeded ({@link System#nanoTime}), and forgets them. */
    synchronized long[] drainWritten() {
        long[] drained = java.util.Arrays.copyOf(written, writtenCount);
        writtenCount = 0;
        return drained;
    }

    /** What was counted so far, for the parent. */
    Map<String, Number> counters() {
        return Map.of("writeUnits", writeUnits.sum(), "writesWithoutCapacity", writesWithoutCapacity.get(),
                "calls", calls.get(), "lateCalls", lateCalls.get(), "throttledWrites", throttledWrites.get(),
                "throttledPutEvents", throttledPutEvents.get(), "localNanos", localNanos.get(),
                "drawnNanos", drawnNanos.get());
    }
}
