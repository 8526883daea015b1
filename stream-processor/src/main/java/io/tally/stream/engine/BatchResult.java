package io.tally.stream.engine;

import java.util.Optional;

/**
 * The outcome of one batch. When a record failed, the stream must be read again from it: report its sequence
 * number as the only batch item failure, and the retry starts there.
 */
public final class BatchResult {
    private final String failedSequenceNumber;
    private final int records;
    private final int skipped;
    private final int poison;
    private final int derivedWrites;
    private final int failedWrites;
    private final int eventsPublished;
    private final int eventsFailed;

    BatchResult(String failedSequenceNumber, int records, int skipped, int poison, int derivedWrites, int failedWrites,
                int eventsPublished, int eventsFailed) {
        this.failedSequenceNumber = failedSequenceNumber;
        this.records = records;
        this.skipped = skipped;
        this.poison = poison;
        this.derivedWrites = derivedWrites;
        this.failedWrites = failedWrites;
        this.eventsPublished = eventsPublished;
        this.eventsFailed = eventsFailed;
    }

    static BatchResult empty() {
        return new BatchResult(null, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * The sequence number (as delivered) of the first record that is not fully processed; empty when the whole
     * batch is. Every record before it is: its derived writes committed, its dead letter filed, its events
     * published.
     */
    public Optional<String> failedSequenceNumber() {
        return Optional.ofNullable(failedSequenceNumber);
    }

    public int records() {
        return records;
    }

    /** Records that derive nothing by design (derived items' echoes, types without a derivation). */
    public int skipped() {
        return skipped;
    }

    /** Records sent to the dead-letter route. */
    public int poison() {
        return poison;
    }

    /** Requests made to the derived store, refused ones included. */
    public int derivedWrites() {
        return derivedWrites;
    }

    /** Derived items whose write failed. */
    public int failedWrites() {
        return failedWrites;
    }

    public int eventsPublished() {
        return eventsPublished;
    }

    public int eventsFailed() {
        return eventsFailed;
    }

    @Override
    public String toString() {
        return "BatchResult[failedSequenceNumber=" + failedSequenceNumber + ", records=" + records + ", skipped="
                + skipped + ", poison=" + poison + ", derivedWrites=" + derivedWrites + ", failedWrites=" + failedWrites
                + ", eventsPublished=" + eventsPublished + ", eventsFailed=" + eventsFailed + "]";
    }
}
