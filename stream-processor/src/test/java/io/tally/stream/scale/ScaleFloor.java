package io.tally.stream.scale;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.SourceRecord;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The least write units any processor must spend on one-record batches of these records, with no bookkeeping of its
 * own: each derived item whose figures a record changes written once, at one write unit (the least DynamoDB charges;
 * every derived item of this workload is under 1 KB whole, so this is the floor, and any error makes the ratio against
 * it larger, never smaller). A counter change of a shared item is a change of the item: one unit, whichever partial
 * Tally writes it to. Documents a change restates unchanged cost nothing.
 */
final class ScaleFloor {
    private final Derivations derivations;
    private final DomainRegistry registry = DomainRegistry.load();
    private double units;

    ScaleFloor(Derivations derivations) {
        this.derivations = derivations;
    }

    void add(SourceRecord record) {
        Optional<EntityType> type = record.entityType().flatMap(registry::entityType);
        if (type.isEmpty()) {
            return;
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
        units += items.size();
    }

    double units() {
        return units;
    }
}
