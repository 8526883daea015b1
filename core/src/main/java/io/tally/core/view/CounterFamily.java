package io.tally.core.view;

import io.tally.core.Ids;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A count per value of a field ({@link CounterViewBuilder#countPer}): one counter a value, {@code <prefix><value>},
 * in the view's item.
 *
 * @param values the values it counts, in the answer's order; null for any id, in its natural order
 */
public record CounterFamily<T>(String prefix, Function<T, String> field, List<String> values) {
    public CounterFamily {
        values = values == null ? null : List.copyOf(values);
    }

    /** Whether a stored counter is one of this family's. */
    public boolean holds(String stored) {
        return stored.startsWith(prefix) && stored.length() > prefix.length();
    }

    /** The counter an entity counts in; its value must be an id (and one of the values, if the family names them). */
    String counter(String typeName, T entity) {
        String value = field.apply(entity);
        if (!Ids.isValid(value) || values != null && !values.contains(value)) {
            throw new IllegalArgumentException(typeName + ": the value counted per " + prefix + " of the entity is"
                    + " not " + (values == null ? "a valid id" : "one of " + values) + ": "
                    + (value == null ? "null" : "'" + value + "'"));
        }
        return prefix + value;
    }

    /**
     * The answer's map from the stored counters: each value's count, zeros left out, in order (a family that names its
     * values reads those only).
     */
    Map<String, Long> read(Map<String, Long> stored) {
        List<String> counted = stored.entrySet().stream()
                .filter(counter -> holds(counter.getKey()) && counter.getValue() != 0)
                .map(counter -> counter.getKey().substring(prefix.length())).sorted().toList();
        Map<String, Long> read = new LinkedHashMap<>();
        (values == null ? counted : values.stream().filter(counted::contains).toList())
                .forEach(value -> read.put(value, stored.get(prefix + value)));
        return Collections.unmodifiableMap(read);
    }
}
