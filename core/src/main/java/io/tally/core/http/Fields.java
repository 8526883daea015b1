package io.tally.core.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A route's input contract: the fields its JSON body may hold ({@link Field}), each once. The route declares it
 * ({@code Router.Route.body}), the OpenAPI document describes it, and the handler parses the body against it
 * ({@link Body#parse(String, Fields)}: a field not listed is refused) and reads each field with {@link Body#get}.
 */
public final class Fields {
    private final Map<String, Field<?>> byName;

    private Fields(Map<String, Field<?>> byName) {
        this.byName = byName;
    }

    /** These fields, in this order; two of one name are refused. */
    public static Fields of(Field<?>... fields) {
        Map<String, Field<?>> byName = new LinkedHashMap<>();
        for (Field<?> field : fields) {
            if (byName.put(field.name(), field) != null) {
                throw new IllegalArgumentException("the field '" + field.name() + "' is listed twice");
            }
        }
        return new Fields(byName);
    }

    /** These fields and {@code more}. */
    public Fields and(Field<?>... more) {
        List<Field<?>> all = new ArrayList<>(byName.values());
        all.addAll(List.of(more));
        return of(all.toArray(Field<?>[]::new));
    }

    /** The fields, in their declared order. */
    public List<Field<?>> list() {
        return List.copyOf(byName.values());
    }

    /** The fields' names. */
    public Set<String> names() {
        return byName.keySet();
    }

    /**
     * The field of these that is {@code field} (the same name, kind and range; required or not, as this contract
     * declares it), or null.
     */
    @SuppressWarnings("unchecked")
    <T> Field<T> find(Field<T> field) {
        Field<?> declared = byName.get(field.name());
        return declared != null && declared.sameRule(field) ? (Field<T>) declared : null;
    }

    @Override
    public String toString() {
        return byName.values().toString();
    }
}
