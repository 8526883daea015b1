package io.tally.core.derive;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What one base item, in one state, contributes to derived data: amounts added to counters and documents it
 * owns. Derived data is the sum of the contributions of all base items; a change of a base item changes
 * derived data by {@code contribution(new) - contribution(old)} (see {@link IntendedChanges#between}).
 */
public record Contribution(Map<CounterRef, Long> counters, Map<Key, Document> documents) {
    public static final Contribution NONE = new Contribution(Map.of(), Map.of());

    public Contribution {
        counters = Map.copyOf(counters);
        documents = Map.copyOf(documents);
    }

    /**
     * The same contribution with every document at this revision ({@link EntityDerivation} sets the revision of the
     * source's state on the documents its derivation built), but a constant document, which is always at revision 0
     * ({@link DerivedType#hasConstantDocument}).
     */
    public Contribution revised(long revision) {
        Map<Key, Document> revised = new HashMap<>();
        documents.forEach((key, document) -> revised.put(key, document.withRevision(
                document.type().hasConstantDocument() ? 0 : revision)));
        return new Contribution(counters, revised);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects counters (summing repeats) and documents in insertion order. */
    public static final class Builder {
        private final Map<CounterRef, Long> counters = new LinkedHashMap<>();
        private final Map<Key, Document> documents = new HashMap<>();

        public Builder count(CounterRef counter, long amount) {
            if (amount != 0) {
                counters.merge(counter, amount, Long::sum);
            }
            return this;
        }

        /** Counts on the item of {@code subject} of a derived type, e.g. {@code count(USER_STATS, "u1", "posts", 1)}. */
        public Builder count(DerivedType type, String subject, String attribute, long amount) {
            return count(CounterRef.of(type, subject, attribute), amount);
        }

        public Builder document(Key key, Document document) {
            documents.put(key, document);
            return this;
        }

        /**
         * The document of the item of {@code subject}: these field values, every other document field absent. Its
         * revision is set by {@link EntityDerivation} from the source's revision.
         */
        public Builder document(DerivedType type, String subject, Map<String, AttributeValue> values) {
            return document(type.key(subject), new Document(type, values, 0));
        }

        public Contribution build() {
            return new Contribution(counters, documents);
        }
    }
}
