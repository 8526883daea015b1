package io.tally.stream.scale;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.SourceRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The least write units any processor must spend on these records, with no bookkeeping of its own: each derived item
 * whose figures a batch changes written once, at one write unit (the least DynamoDB charges; every derived item of
 * this workload is under 1 KB whole, so this is the floor, and any error makes the ratio against it larger, never
 * smaller). One-record batches ({@link #add}) write each item a record changes; a larger batch ({@link #addBatch})
 * writes each item any of its records changes once, as a processor that coalesces a batch's changes per item does.
 * A counter change of a shared item is a change of the item: one unit, whichever partial Tally writes it to. Documents
 * a change restates unchanged cost nothing.
 */
final class ScaleFloor {
    private final Derivations derivations;
    private final DomainRegistry registry = DomainRegistry.load();
    private double units;

    ScaleFloor(Derivations derivations) {
        this.derivations = derivations;
    }

    /** A one-record batch. */
    void add(SourceRecord record) {
        units += items(record).size();
    }

    /** A batch of records: each item changed by any of them, once. */
    void addBatch(List<SourceRecord> batch) {
        Set<Key> items = new HashSet<>();
        batch.forEach(record -> items.addAll(items(record)));
        units += items.size();
    }

    private Set<Key> items(SourceRecord record) {
        Optional<EntityType> type = record.entityType().flatMap(registry::entityType);
        if (type.isEmpty()) {
            return Set.of();
        }
        IntendedChanges changes = derivations.derive(type.get(), record.eventId(), record.oldImage(),
                record.newImage());
        Set<Key> items = new HashSet<>();
        changes.counterDeltas().forEach((counter, delta) -> {
            if (delta != 0) {
                items.add(counter.key());
            }
        });
        changes.documents().keySet().stream().filter(key -> !changes.restated().contains(key)).forEach(items::add);
        return items;
    }

    double units() {
        return units;
    }
}
