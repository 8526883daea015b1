package io.tally.stream.rebuild;

import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.IntendedChanges;
import io.tally.stream.engine.Watermarks;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a rebuild accumulates: the derived state the base items contribute, the stored derived items, the counts of
 * the report, which state of each base item the scan saw, and the cascades left undone. Base items enter from the
 * scan ({@link #scanned}) and leave or enter again as the stream tells their state at its position ({@link #count}).
 * Not thread-safe.
 */
final class Recomputation {
    /** The event id of a rebuild's derivation: its events are not published. */
    static final String REBUILD = "rebuild";

    final DerivedState expected = new DerivedState();
    final Map<Key, Comparison.StoredItem> actual = new HashMap<>();
    final ScannedStates scannedStates = new ScannedStates();
    final Orphans orphans = new Orphans();
    private final Derivations derivations;
    long baseItems;
    /** Base items of an entity type no loaded domain declares, by that type's name ({@link #NO_TYPE}: none). */
    final Map<String, Long> unknownTypes = new TreeMap<>();
    /**
     * Items of a type no loaded domain declares that carry the stream processor's watermarks: derived items, of a
     * domain whose jar was left out or of one removed since, by type. Neither base items nor compared.
     */
    final Map<String, Long> undeclaredDerivedTypes = new TreeMap<>();
    /** Base items of a declared entity type that its derivation cannot read, by type. */
    final Map<String, Long> unreadableTypes = new TreeMap<>();

    /** How an item without an entity type attribute is named in the counts of unknown types. */
    static final String NO_TYPE = "(no entityType)";

    Recomputation(Derivations derivations) {
        this.derivations = derivations;
    }

    /**
     * An item of the scan. Every derived item is compared, whatever its type: one of a type the application does not
     * declare (say, left by a removed domain) shows as a difference to remove. Dead letters, shard cursors and the
     * pruner's position are bookkeeping ({@link DomainRegistry#BOOKKEEPING}), not derived data. Any other item is a base item in the state the scan saw.
     */
    void scanned(Map<String, AttributeValue> item) {
        Optional<EntityType> type = derivations.registry().entityType(Items.entityTypeName(item));
        if (type.isPresent() && type.get().isDerived()) {
            if (!DomainRegistry.BOOKKEEPING.contains(type.get())) {
                actual.put(Key.of(item), Comparison.StoredItem.of(type.get(),
                        derivations.registry().derivedType(type.get().attributeValue()), item));
            }
            return;
        }
        scannedStates.put(Key.of(item), item);
        count(item, 1);
    }

    /** Whether a record of an item with this entity type attribute is one of a derived item (our own write). */
    static boolean isDerived(DomainRegistry registry, String entityType) {
        return registry.entityType(entityType).map(EntityType::isDerived).orElse(false);
    }

    /**
     * Counts a base item in one state in ({@code sign} 1) or takes it out again (-1). An item without a known entity
     * type, or one its derivation cannot read, is unreadable and contributes nothing: the stream processor
     * dead-letters such an item's record and lets that side contribute nothing too.
     */
    void count(Map<String, AttributeValue> image, int sign) {
        String name = Items.entityTypeName(image);
        Optional<EntityType> type = derivations.registry().entityType(name);
        if (type.isEmpty()) {
            boolean derived = image.keySet().stream().anyMatch(Watermarks::isWatermark);
            add(derived ? undeclaredDerivedTypes : unknownTypes, name == null ? NO_TYPE : name, sign);
            return;
        }
        baseItems += sign;
        IntendedChanges contribution = derivations.derive(type.get(), REBUILD, null, image);
        if (!contribution.isClean()) {
            add(unreadableTypes, name, sign);
            return;
        }
        if (sign > 0) {
            expected.add(contribution);
        } else {
            expected.subtract(contribution);
        }
        orphans.count(derivations.cascadeLinks(type.get(), image), sign);
    }

    private static void add(Map<String, Long> counts, String name, int sign) {
        counts.merge(name, (long) sign, (a, b) -> a + b == 0 ? null : a + b);
    }
}
