package io.tally.core.derive;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Carries out {@link Cascade cascades}: the engine's port, {@link #overTable} in a deployment. Each run must be
 * idempotent: it is repeated whenever its record is delivered again.
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

    /** Each cascade removes what it names from this table ({@link Cascade#removeWith}). */
    static CascadeRunner overTable(DynamoDbClient dynamo, String table) {
        ConditionalRemovals removals = new ConditionalRemovals(dynamo, table);
        return cascade -> cascade.removeWith(removals);
    }
}
