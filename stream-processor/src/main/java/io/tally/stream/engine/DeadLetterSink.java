package io.tally.stream.engine;

/** The dead-letter route of records that can never be processed; a port. */
public interface DeadLetterSink {
    /**
     * Files the record durably. Called again with the same record when its batch is retried: filing must be
     * idempotent.
     *
     * @throws RuntimeException when the record could not be filed; the engine then fails the record, so that the
     *                          retry files it again (a dead letter is never lost)
     */
    void send(DeadLetter letter);
}
