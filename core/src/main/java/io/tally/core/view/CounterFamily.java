package io.tally.core.view;

import io.tally.core.Ids;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A count per value of a field ({@link CounterViewBuilder#countPer}): one counter a value, {@code <prefix><value>},
 * in the view's item.
 *
 * @param order the order of the values in the answer's map
 */
public record CounterFamily<T>(String prefix, Function<T, String> field, Comparator<String> order) {
    /** Whether a stored counter is one of this family's. */
    public boolean holds(String stored) {
        return stored.startsWith(prefix) && stored.length() > prefix.length();
    }

    /** The counter an entity counts in; its value must be an id. */
    String counter(String typeName, T entity) {
        String value = field.apply(entity);
        if (!Ids.isValid(value)) {
            throw new IllegalArgumentException(typeName + ": the value counted per " + prefix + " of the entity is"
                    + " not a valid id: " + (value == null ? "null" : "'" + value + "'"));
        }
        return prefix + value;
    }

    /** The answer's map from the stored counters: each value's count, zeros left out, in order. */
    Map<String, Long> read(Map<String, Long> stored) {
        List<String> values = stored.entrySet().stream()
                .filter(counter -> holds(counter.getKey()) && counter.getValue() != 0)
                .map(counter -> counter.getKey().substring(prefix.length())).sorted(order).toList();
        Map<String, Long> read = new LinkedHashMap<>();
        values.forEach(value -> read.put(value, stored.get(prefix + value)));
        return Collections.unmodifiableMap(read);
    }
}
