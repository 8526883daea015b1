package io.tally.stream.engine;

import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.core.read.SharedReads;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Derived items in memory, with the semantics of {@link DynamoDbDerivedStore}: the same watermark and document
 * revision conditions, ADD creating a missing number, {@code if_not_exists} for the entity type, the write version
 * moved, counters of a family at zero removed (declared ones kept at zero). For tests and tools.
 */
public final class InMemoryDerivedStore implements DerivedStore {
    private final Map<Key, Map<String, AttributeValue>> items = new LinkedHashMap<>();

    @Override
    public synchronized Outcome apply(DerivedWrite write) {
        Map<String, AttributeValue> existing = items.get(write.key());
        String watermark = DerivedWrites.watermarkOf(write, existing);
        Long revision = DerivedWrites.revisionOf(existing);
        boolean holds = write.watermarkKnown()
                ? Objects.equals(write.expectedWatermark(), watermark)
                : watermark == null || watermark.compareTo(write.firstSequence()) < 0;
        if (write.hasDocument()) {
            holds &= revision == null || revision <= write.documentRevision();
        }
        if (!holds) {
            return new Refused(watermark, revision);
        }
        Map<String, AttributeValue> item = existing == null ? new HashMap<>(write.key().toAttributeMap())
                : new HashMap<>(existing);
        item.putIfAbsent(TableSchema.ENTITY_TYPE, AttributeValue.fromS(write.type().attributeValue()));
        item.put(write.watermarkAttribute(), AttributeValue.fromS(write.lastSequence()));
        AttributeValue version = item.get(TableSchema.WRITE_VERSION);
        item.put(TableSchema.WRITE_VERSION, AttributeValue.fromN(Long.toString(
                version == null ? 1 : Long.parseLong(version.n()) + 1)));
        if (write.hasDocument()) {
            item.put(TableSchema.SOURCE_REVISION, AttributeValue.fromN(Long.toString(write.documentRevision())));
        }
        item.putAll(write.documentSet());
        write.documentRemove().forEach(item::remove);
        write.counterAdds().forEach((attribute, amount) -> {
            AttributeValue current = item.get(attribute);
            if (current != null && current.n() == null) {
                // DynamoDB answers a ValidationException here; the write fails as a whole.
                throw new IllegalStateException("ADD to a non-number attribute " + attribute + " of " + write.key());
            }
            BigDecimal sum = (current == null ? BigDecimal.ZERO : new BigDecimal(current.n())).add(BigDecimal.valueOf(amount));
            if (sum.signum() == 0 && write.removableCounters().contains(attribute)) {
                // As the DynamoDB store does after its write: a counter of a family at zero is removed.
                item.remove(attribute);
            } else {
                item.put(attribute, AttributeValue.fromN(sum.toPlainString()));
            }
        });
        items.put(write.key(), Map.copyOf(item));
        return Applied.INSTANCE;
    }

    public synchronized Optional<Map<String, AttributeValue>> item(Key key) {
        return Optional.ofNullable(items.get(key));
    }

    /**
     * An item as readers see it: for a shared type, its base item and the per-lineage partials beside it, counters
     * summed ({@link SharedReads#merge}: without key and bookkeeping); empty when there is neither.
     */
    public synchronized Optional<Map<String, AttributeValue>> whole(Key base) {
        return Optional.ofNullable(SharedReads.merge(base, items.entrySet().stream()
                .filter(entry -> PartialKeys.baseOf(entry.getKey()).equals(base))
                .map(Map.Entry::getValue)
                .toList()));
    }

    /** A snapshot of every item. */
    public synchronized Map<Key, Map<String, AttributeValue>> items() {
        return Map.copyOf(items);
    }

    /** Stores an item as it is, e.g. to start from a given state. */
    public synchronized void put(Map<String, AttributeValue> item) {
        items.put(Key.of(item), Map.copyOf(item));
    }
}
