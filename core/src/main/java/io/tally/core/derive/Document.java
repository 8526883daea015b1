package io.tally.core.derive;

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
 * <p>Records of one source item may reach the derived item through different stream shards (a parent shard and its
 * children), in any order. The revision orders them: a document is written only over one of the same or a lower
 * revision. {@link EntityDerivation} sets it from the source item's own revision R, which grows with every write of
 * the item: {@code 2R} for the document of a state of the source, {@code 2R + 1} for the removal of a document that
 * state held (the source was deleted, or no longer owns it). So a removal beats the state it removes, and any later
 * state (R' &gt; R, hence 2R' &gt; 2R + 1) beats the removal.
 *
 * @param values   the fields it holds now (a subset of the type's document fields)
 * @param revision the revision of the source state it comes from (see above); 0 until a derivation sets it
 */
public record Document(DerivedType type, Map<String, AttributeValue> values, long revision) {
    public Document {
        Objects.requireNonNull(type, "type");
        values = Map.copyOf(values);
        for (String field : values.keySet()) {
            if (!type.isDocument(field)) {
                throw new IllegalArgumentException((DerivedType.isReserved(field) ? "reserved attribute '" : "'")
                        + field + "' is not a document field of " + type);
            }
        }
        if (revision < 0) {
            throw new IllegalArgumentException("negative document revision: " + revision);
        }
    }

    /** The removal of a document whose source no longer exists (or no longer contributes). */
    public static Document removed(DerivedType type, long revision) {
        return new Document(type, Map.of(), revision);
    }

    /** The same document at another revision. */
    public Document withRevision(long next) {
        return new Document(type, values, next);
    }

    /** Every field this kind of document may hold: writing it removes those it does not hold now. */
    public Set<String> owned() {
        return type.documentFields();
    }

    public boolean isRemoval() {
        return values.isEmpty();
    }
}
