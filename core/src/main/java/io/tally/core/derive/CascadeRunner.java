package io.tally.core.derive;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Carries out {@link Cascade cascades}: a port, with one adapter per domain that has cascades (over the table).
 * Each run must be idempotent: it is repeated whenever its record is delivered again.
 */
@FunctionalInterface
public interface CascadeRunner {
    /** Refuses every cascade: for engines of derivations that ask for none. */
    CascadeRunner NONE = cascade -> {
        throw new UnsupportedOperationException("no cascade runner for " + cascade.describe());
    };

    /**
     * Removes what the cascade names that is still there.
     *
     * @return how many items this run removed (0 when an earlier run removed them)
     * @throws RuntimeException when it could not finish (throttling, timeouts): the record is retried
     */
    int run(Cascade cascade);

    /** Hands each cascade to the runner of its class. */
    static CascadeRunner byType(Map<Class<? extends Cascade>, CascadeRunner> runners) {
        Map<Class<? extends Cascade>, CascadeRunner> copy = new LinkedHashMap<>(runners);
        return cascade -> copy.getOrDefault(cascade.getClass(), NONE).run(cascade);
    }
}
