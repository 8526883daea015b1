package io.tally.core.store;

import io.tally.core.Items;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A change of some attributes of one item, as DynamoDB's update expressions say it: values set, numbers increased,
 * attributes removed, each by name with a typed value ({@link Items#value}). The item's other attributes stay as they
 * are. Immutable: each method answers a new update.
 */
public final class Update {
    /** The attributes {@link #versioned} sets on the items the writer owns (a user, a post, an organisation). */
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";

    private final List<Function<Placeholders, String>> sets;
    private final List<Function<Placeholders, String>> removes;

    private Update(List<Function<Placeholders, String>> sets, List<Function<Placeholders, String>> removes) {
        this.sets = List.copyOf(sets);
        this.removes = List.copyOf(removes);
    }

    /** Nothing changed yet. */
    public static Update of() {
        return new Update(List.of(), List.of());
    }

    /**
     * A change of an item the writer owns: {@code updatedAt} set to {@code now} and {@code version} increased by one,
     * besides what the caller sets.
     */
    public static Update versioned(Instant now) {
        return of().set(UPDATED_AT, now).increase(VERSION, 1);
    }

    /** Sets the attribute to {@code value}; a null value leaves the attribute as it is (an optional field not given). */
    public Update set(String attribute, Object value) {
        if (value == null) {
            return this;
        }
        var converted = Items.value(value);
        return withSet(p -> p.name(attribute) + " = " + p.value(converted));
    }

    /** Adds {@code amount} to the number in the attribute, which must be there. */
    public Update increase(String attribute, long amount) {
        var converted = Items.value(amount);
        return withSet(p -> p.name(attribute) + " = " + p.name(attribute) + " + " + p.value(converted));
    }

    /** Removes the attribute. */
    public Update remove(String attribute) {
        List<Function<Placeholders, String>> more = new ArrayList<>(removes);
        more.add(p -> p.name(attribute));
        return new Update(sets, more);
    }

    private Update withSet(Function<Placeholders, String> set) {
        List<Function<Placeholders, String>> more = new ArrayList<>(sets);
        more.add(set);
        return new Update(more, removes);
    }

    String render(Placeholders placeholders) {
        if (sets.isEmpty() && removes.isEmpty()) {
            throw new IllegalStateException("an update must change something");
        }
        List<String> clauses = new ArrayList<>();
        if (!sets.isEmpty()) {
            clauses.add("SET " + String.join(", ", sets.stream().map(set -> set.apply(placeholders)).toList()));
        }
        if (!removes.isEmpty()) {
            clauses.add("REMOVE " + String.join(", ", removes.stream().map(r -> r.apply(placeholders)).toList()));
        }
        return String.join(" ", clauses);
    }
}
