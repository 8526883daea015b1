package io.tally.domains.catalogue;

import com.fasterxml.jackson.annotation.JsonValue;
import io.tally.core.ItemSchema;
import java.util.Optional;

/** States of a catalogue item in a user's journey. {@link #COMPLETED} is final. Stored and written as its value. */
public enum ItemState implements ItemSchema.Coded {
    ASSIGNED("assigned"),
    IN_PROGRESS("in-progress"),
    COMPLETED("completed"),
    ORPHANED("orphaned");

    private final String value;

    ItemState(String value) {
        this.value = value;
    }

    @Override
    @JsonValue
    public String value() {
        return value;
    }

    public static Optional<ItemState> parse(String value) {
        return ItemSchema.Coded.parse(values(), value);
    }
}
