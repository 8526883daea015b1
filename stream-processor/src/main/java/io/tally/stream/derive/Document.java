package io.tally.stream.derive;

import io.tally.core.EntityType;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The part of a derived item that one source item owns outright, e.g. the title and status of a post's
 * projection. The source's latest state decides it: writing it sets {@code values} and removes the
 * {@code owned} attributes that {@code values} lacks, so a document never keeps a stale attribute.
 *
 * @param owned  every attribute this kind of document may hold
 * @param values the attributes it holds now (a subset of {@code owned})
 */
public record Document(EntityType type, Set<String> owned, Map<String, AttributeValue> values) {
    public Document {
        Objects.requireNonNull(type, "type");
        owned = Set.copyOf(owned);
        values = Map.copyOf(values);
        if (!owned.containsAll(values.keySet())) {
            throw new IllegalArgumentException("document values outside its owned attributes: " + values.keySet());
        }
    }

    /** The removal of a document whose source no longer exists (or no longer contributes). */
    public static Document removed(EntityType type, Set<String> owned) {
        return new Document(type, owned, Map.of());
    }

    public boolean isRemoval() {
        return values.isEmpty();
    }
}
