package io.tally.core;

/** An item of the table does not have the shape its entity type requires. */
public class MalformedItemException extends RuntimeException {
    public MalformedItemException(String message) {
        super(message);
    }
}
