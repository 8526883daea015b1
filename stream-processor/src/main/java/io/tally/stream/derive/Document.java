package io.tally.stream.derive;

import io.tally.core.DerivedType;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The document part of a derived item, owned outright by one source item, e.g. the title and status of a post's
 * projection. The source's latest state decides it: writing it sets {@code values} and removes the type's document
 * fields that {@code values} lacks, so a document never keeps a stale attribute.
 *
 * @param values the fields it holds now (a subset of the type's document fields)
 */
public record Document(DerivedType type, Map<String, AttributeValue> values) {
    public Document {
        Objects.requireNonNull(type, "type");
        values = Map.copyOf(values);
        for (String field : values.keySet()) {
            if (!type.isDocument(field)) {
                throw new IllegalArgumentException((DerivedType.isReserved(field) ? "reserved attribute '" : "'")
                        + field + "' is not a document field of " + type);
            }
        }
    }

    /** The removal of a document whose source no longer exists (or no longer contributes). */
    public static Document removed(DerivedType type) {
        return new Document(type, Map.of());
    }

    /** Every field this kind of document may hold: writing it removes those it does not hold now. */
    public Set<String> owned() {
        return type.documentFields();
    }

    public boolean isRemoval() {
        return values.isEmpty();
    }
}
