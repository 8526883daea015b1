package io.tally.core.store;

import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The names and values of one request's expressions: each attribute named once ({@code #a0}), each value by position
 * ({@code :v0}), so that a condition and an update of the same request never collide. Attribute names always go
 * through a placeholder, so a name DynamoDB reserves ({@code status}, {@code name}) needs no care.
 */
final class Placeholders {
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, AttributeValue> values = new LinkedHashMap<>();

    /** The placeholder of an attribute name, the same one each time the name comes again. */
    String name(String attribute) {
        for (Map.Entry<String, String> entry : names.entrySet()) {
            if (entry.getValue().equals(attribute)) {
                return entry.getKey();
            }
        }
        String placeholder = "#a" + names.size();
        names.put(placeholder, attribute);
        return placeholder;
    }

    /** A new placeholder holding {@code value}. */
    String value(AttributeValue value) {
        String placeholder = ":v" + values.size();
        values.put(placeholder, value);
        return placeholder;
    }

    /** The names, or null when there are none: DynamoDB refuses an empty map. */
    Map<String, String> names() {
        return names.isEmpty() ? null : Map.copyOf(names);
    }

    /** The values, or null when there are none: DynamoDB refuses an empty map. */
    Map<String, AttributeValue> values() {
        return values.isEmpty() ? null : Map.copyOf(values);
    }
}
