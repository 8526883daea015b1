package io.tally.stream.engine;

/**
 * Where derived items live; a port with a DynamoDB adapter ({@link DynamoDbDerivedStore}) and an in-memory one
 * ({@link InMemoryDerivedStore}) with the same semantics.
 */
public interface DerivedStore {

    /**
     * Applies the write if its conditions hold: on the item's watermark for the write's shard, and, when the write
     * holds a document, on the item's document revision (none, or at most the write's).
     *
     * @return {@link Applied} or, when a condition does not hold, {@link Refused} with what the item holds
     * @throws RuntimeException when the write could not be made (throttling, timeouts, ...): it may be retried
     */
    Outcome apply(DerivedWrite write);

    /** The result of {@link #apply}. */
    sealed interface Outcome permits Applied, Refused {
    }

    /**
     * The write is committed; it cost {@code writeUnits} write units of the table (its indexes left out): the size of
     * the item, before or after the write whichever is larger, in KB rounded up. 0 when the store does not say.
     */
    record Applied(int writeUnits) implements Outcome {
        /** Committed, at a cost the store does not say. */
        public static final Applied INSTANCE = new Applied(0);
    }

    /**
     * A condition failed; the item, as it was then, holds {@code watermark} for the write's shard and a document of
     * {@code revision} ({@code srcRev}). Either is null when the item has none (both when there is no item). Either
     * the watermark is ahead (some of the write's records were applied before), or the item holds a newer document
     * (written through another shard).
     */
    record Refused(String watermark, Long revision) implements Outcome {
    }
}
