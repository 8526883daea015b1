package io.tally.domains.catalogue;

import java.util.Arrays;
import java.util.Optional;

/** States of a catalogue item in a user's journey. {@link #COMPLETED} is final. */
public enum ItemState {
    ASSIGNED("assigned"),
    IN_PROGRESS("in-progress"),
    COMPLETED("completed"),
    ORPHANED("orphaned");

    private final String value;

    ItemState(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<ItemState> parse(String value) {
        return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst();
    }
}
