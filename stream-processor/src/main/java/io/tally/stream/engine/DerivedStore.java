package io.tally.stream.engine;

/**
 * Where derived items live; a port with a DynamoDB adapter ({@link DynamoDbDerivedStore}) and an in-memory one
 * ({@link InMemoryDerivedStore}) with the same semantics.
 */
public interface DerivedStore {

    /**
     * Applies the write if its condition on the item's watermark holds.
     *
     * @return {@link Applied} or, when the condition does not hold, {@link WatermarkAhead} with the item's watermark
     * @throws RuntimeException when the write could not be made (throttling, timeouts, ...): it may be retried
     */
    Outcome apply(DerivedWrite write);

    /** The result of {@link #apply}. */
    sealed interface Outcome permits Applied, WatermarkAhead {
    }

    /** The write is committed. */
    record Applied() implements Outcome {
        public static final Applied INSTANCE = new Applied();
    }

    /**
     * The condition failed: the item's watermark for the write's shard is {@code current} (null when the item
     * has none), so some of the write's records were applied before.
     */
    record WatermarkAhead(String current) implements Outcome {
    }
}
