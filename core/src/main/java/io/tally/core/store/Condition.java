package io.tally.core.store;

import io.tally.core.Items;
import io.tally.core.TableSchema;
import java.util.function.Function;

/**
 * A condition on one item, as DynamoDB's condition expressions say it, built from attribute names and typed values
 * (converted as {@link io.tally.core.ItemSchema} stores them, {@link Items#value}): {@code exists().and(isNot(STATUS,
 * PostStatus.DELETED))}. Rendered with a request's {@link Placeholders}, so it never collides with the request's
 * update. Immutable.
 */
public final class Condition {
    private final Function<Placeholders, String> text;

    private Condition(Function<Placeholders, String> text) {
        this.text = text;
    }

    /** An item is at the key. */
    public static Condition exists() {
        return has(TableSchema.PK);
    }

    /** No item is at the key: a put on it creates and never overwrites. */
    public static Condition absent() {
        return lacks(TableSchema.PK);
    }

    /** The item has the attribute. */
    public static Condition has(String attribute) {
        return new Condition(p -> "attribute_exists(" + p.name(attribute) + ")");
    }

    /** The item lacks the attribute (or there is no item). */
    public static Condition lacks(String attribute) {
        return new Condition(p -> "attribute_not_exists(" + p.name(attribute) + ")");
    }

    /** The attribute holds {@code value}. */
    public static Condition is(String attribute, Object value) {
        return compare(attribute, "=", value);
    }

    /** The attribute does not hold {@code value}: also true when the item lacks it (as DynamoDB compares). */
    public static Condition isNot(String attribute, Object value) {
        return compare(attribute, "<>", value);
    }

    /** The attribute is there and below {@code value} (numbers by value, strings by their bytes). A missing one is not. */
    public static Condition below(String attribute, Object value) {
        return compare(attribute, "<", value);
    }

    /** The string in the attribute contains {@code part}. */
    public static Condition contains(String attribute, String part) {
        var converted = Items.value(part);
        return new Condition(p -> "contains(" + p.name(attribute) + ", " + p.value(converted) + ")");
    }

    private static Condition compare(String attribute, String operator, Object value) {
        // Converted now, so that a value that cannot be stored fails where the condition is made.
        var converted = Items.value(value);
        return new Condition(p -> p.name(attribute) + " " + operator + " " + p.value(converted));
    }

    /** Both this condition and {@code other}. */
    public Condition and(Condition other) {
        return new Condition(p -> render(p) + " AND " + other.render(p));
    }

    /**
     * This condition, and the item at {@code version} of {@link Update#VERSION} when one is given: an
     * {@code If-Match} precondition ({@code null}: any version, as {@code *} or no header says).
     */
    public Condition atVersion(Long version) {
        return version == null ? this : and(is(Update.VERSION, version));
    }

    /** This condition or {@code other}; bracketed, so that a further {@link #and} binds to the whole. */
    public Condition or(Condition other) {
        return new Condition(p -> "(" + render(p) + " OR " + other.render(p) + ")");
    }

    String render(Placeholders placeholders) {
        return text.apply(placeholders);
    }
}
