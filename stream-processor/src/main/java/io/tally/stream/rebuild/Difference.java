package io.tally.stream.rebuild;

import io.tally.core.EntityType;
import io.tally.core.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One attribute of one derived item that differs from the recomputation.
 *
 * @param expected the recomputed value, or null when the attribute should be absent (a counter: zero)
 * @param actual   the stored value, or null when it is absent
 */
public record Difference(Key key, EntityType type, String attribute, AttributeValue expected, AttributeValue actual) {
    @Override
    public String toString() {
        return key.pk() + " / " + key.sk() + " (" + type.attributeValue() + ") " + attribute + ": expected "
                + show(expected) + ", found " + show(actual);
    }

    private static String show(AttributeValue value) {
        if (value == null) {
            return "nothing";
        }
        return value.n() != null ? value.n() : value.s() != null ? "\"" + value.s() + "\"" : value.toString();
    }
}
