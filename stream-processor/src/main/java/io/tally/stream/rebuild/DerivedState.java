package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.derive.Document;
import io.tally.core.derive.IntendedChanges;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Derived data as the sum of contributions: per derived item, its counters and the document values its
 * owner sets. Built from a scan of the base items, it is what the stream processor must have produced.
 */
public final class DerivedState {
    /**
     * The content of one derived item that the verification compares (watermarks and document revision aside).
     *
     * @param revision the revision of its document (what a repair stores as {@code srcRev}), or null when it holds
     *                 none
     */
    public record Item(DerivedType type, Map<String, Long> counters, Map<String, AttributeValue> document,
                       Long revision) {
    }

    private final Map<Key, MutableItem> items = new HashMap<>();

    private static final class MutableItem {
        final DerivedType type;
        final Map<String, Long> counters = new TreeMap<>();
        final Map<String, AttributeValue> document = new TreeMap<>();
        Long revision;
        /** How many contributions hold each document value (one owner by design; counted so subtract is exact). */
        final Map<String, Integer> claims = new HashMap<>();

        MutableItem(DerivedType type) {
            this.type = type;
        }
    }

    /** Adds what one base item contributes: its changes from nothing to its current state. */
    public void add(IntendedChanges contribution) {
        contribution.counterDeltas().forEach((counter, amount) -> item(counter.key(), counter.type())
                .counters.merge(counter.attribute(), amount, Long::sum));
        contribution.documents().forEach((key, document) -> addDocument(key, document));
    }

    /**
     * Takes back what one base item contributes in one state, which an earlier {@link #add} counted: the rebuild
     * counts every scanned item, then replaces the state the scan saw by the state at the stream position.
     */
    public void subtract(IntendedChanges contribution) {
        contribution.counterDeltas().forEach((counter, amount) -> item(counter.key(), counter.type())
                .counters.merge(counter.attribute(), -amount, Long::sum));
        contribution.documents().forEach((key, document) -> {
            if (!document.isRemoval()) {
                MutableItem item = item(key, document.type());
                document.values().forEach((attribute, value) -> {
                    if (!value.equals(item.document.get(attribute))) {
                        throw new IllegalStateException("attribute '" + attribute + "' of " + key
                                + " was not added with this value: " + value);
                    }
                    if (item.claims.merge(attribute, -1, Integer::sum) == 0) {
                        item.claims.remove(attribute);
                        item.document.remove(attribute);
                    }
                });
                if (item.document.isEmpty()) {
                    // The state at the stream position brings its own document (and revision), if any.
                    item.revision = null;
                }
            }
        });
    }

    private void addDocument(Key key, Document document) {
        if (document.isRemoval()) {
            return;
        }
        MutableItem item = item(key, document.type());
        item.revision = item.revision == null ? document.revision() : Math.max(item.revision, document.revision());
        for (Map.Entry<String, AttributeValue> value : document.values().entrySet()) {
            AttributeValue previous = item.document.put(value.getKey(), value.getValue());
            if (previous != null && !previous.equals(value.getValue())) {
                throw new IllegalStateException("two sources own attribute '" + value.getKey() + "' of " + key);
            }
            item.claims.merge(value.getKey(), 1, Integer::sum);
        }
    }

    private MutableItem item(Key key, DerivedType type) {
        MutableItem item = items.computeIfAbsent(key, k -> new MutableItem(type));
        if (item.type != type) {
            throw new IllegalStateException(key + " is derived as " + item.type + " and as " + type);
        }
        return item;
    }

    /** The derived items, counters that sum to zero left out (a missing counter reads as zero). */
    public Map<Key, Item> items() {
        Map<Key, Item> result = new HashMap<>();
        items.forEach((key, item) -> {
            Map<String, Long> counters = new TreeMap<>(item.counters);
            counters.values().removeIf(v -> v == 0);
            result.put(key, new Item(item.type, Map.copyOf(counters), Map.copyOf(item.document), item.revision));
        });
        return result;
    }
}
