package io.tally.core.derive;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import java.util.Objects;

/**
 * One number attribute of one derived item, e.g. {@code posts} of {@code USER#u1 / #STATS#}. Only a counter its
 * type declares can be addressed, so a derivation cannot write an attribute the rebuilder and the read side do not
 * know.
 */
public record CounterRef(Key key, DerivedType type, String attribute) {
    public CounterRef {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(attribute, "attribute");
        if (!type.isCounter(attribute)) {
            throw new IllegalArgumentException((DerivedType.isReserved(attribute) ? "reserved attribute '" : "'")
                    + attribute + "' is not a counter of " + type);
        }
    }

    /** The counter of the item of {@code subject}, e.g. {@code of(USER_STATS, "u1", "posts")}. */
    public static CounterRef of(DerivedType type, String subject, String attribute) {
        return new CounterRef(type.key(subject), type, attribute);
    }
}
