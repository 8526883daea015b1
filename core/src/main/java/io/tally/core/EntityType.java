package io.tally.core;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The kind of an item, stored in {@link TableSchema#ENTITY_TYPE} on every item so that a stream consumer can route a
 * record without parsing its keys. Each domain declares its own types beside its entities (e.g.
 * {@code io.tally.domains.blog.Blog}); {@code io.tally.core.domain.DomainRegistry} knows them all.
 *
 * @param attributeValue the value stored in the item's entity type attribute, e.g. {@code Post}
 * @param derived        whether items of this type are derived data (written by the stream processor, never by a
 *                       writer)
 */
public record EntityType(String attributeValue, boolean derived) {
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Za-z0-9]{0,63}");

    public EntityType {
        Objects.requireNonNull(attributeValue, "attributeValue");
        if (!NAME.matcher(attributeValue).matches()) {
            throw new IllegalArgumentException("an entity type is a capitalised word: " + attributeValue);
        }
    }

    /** A base item type: written by the writer service. */
    public static EntityType base(String attributeValue) {
        return new EntityType(attributeValue, false);
    }

    /** A derived item type; see {@link DerivedType} for the declaration of its attributes. */
    public static EntityType derivedType(String attributeValue) {
        return new EntityType(attributeValue, true);
    }

    /** Whether items of this type are derived data (written by the stream processor, never by a writer). */
    public boolean isDerived() {
        return derived;
    }

    /** Whether an item carries this type in its entity type attribute. */
    public boolean isTypeOf(Map<String, AttributeValue> item) {
        AttributeValue value = item == null ? null : item.get(TableSchema.ENTITY_TYPE);
        return value != null && attributeValue.equals(value.s());
    }

    @Override
    public String toString() {
        return attributeValue;
    }
}
