package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.Objects;

/**
 * One number attribute of one derived item, e.g. {@code posts} of {@code USER#u1 / #STATS#}.
 *
 * @param type the derived item's entity type, written with the first contribution
 */
public record CounterRef(Key key, EntityType type, String attribute) {
    public CounterRef {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(attribute, "attribute");
        if (!type.isDerived()) {
            throw new IllegalArgumentException("counters live on derived items only: " + type);
        }
    }
}
