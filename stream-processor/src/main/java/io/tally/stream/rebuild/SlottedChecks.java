package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The items of a slotted type ({@link DerivedType#isSlotted}), checked together per subject (the global totals; one
 * day's downloads). Which slot holds how much depends on which stream shard delivered which record, which the table
 * does not tell; only the sum over the slots is derived data. So the recomputation holds the whole in slot 0 (where derivations address it), the comparison sums the
 * stored slots, and the group has caught up with the stream position when every slot has. Its repair writes the whole
 * into slot 0 and empties every other slot that holds anything, each slot with the watermarks of the shards whose
 * records change it: one transaction, so that the sum is never half repaired.
 */
final class SlottedChecks {
    /** The slots of each subject of a slotted type, by the key that names them all ({@link DerivedType#ALL_SLOTS}). */
    private final Map<Key, Group> groups = new LinkedHashMap<>();

    private record Group(DerivedType type, List<ItemChecks.Check> slots) {
    }

    /** Takes the check if its item is of a slotted type; false when it is not. */
    boolean add(ItemChecks.Check check) {
        Optional<DerivedType> type = type(check).filter(DerivedType::isSlotted);
        type.ifPresent(t -> groups.computeIfAbsent(t.inSlot(check.key(), DerivedType.ALL_SLOTS),
                k -> new Group(t, new ArrayList<>())).slots().add(check));
        return type.isPresent();
    }

    /** One check per subject of a slotted type seen: the sum of its slots against the whole. */
    List<ItemChecks.Check> checks() {
        List<ItemChecks.Check> checks = new ArrayList<>();
        groups.forEach((whole, group) -> checks.add(group(whole, group.type(), group.slots())));
        return checks;
    }

    private static ItemChecks.Check group(Key whole, DerivedType type, List<ItemChecks.Check> slots) {
        Key first = type.inSlot(whole, "0");
        DerivedState.Item want = null;
        List<ItemChecks.Check> members = new ArrayList<>();
        boolean caughtUp = true;
        for (ItemChecks.Check slot : slots) {
            caughtUp &= slot.caughtUp();
            if (slot.key().equals(first)) {
                want = slot.want();
                members.add(slot);
            } else if (slot.want() != null) {
                throw new IllegalStateException("a derivation addressed " + slot.key() + ": slotted items are addressed"
                        + " at slot 0 and placed by the engine");
            } else if (!slot.caughtUp() || slot.have() != null && !slot.have().attributes().isEmpty()) {
                members.add(ItemChecks.check(slot.key(), null, slot.have(), slot.touches()));
            }
        }
        // Without a slot 0 among them, the whole is nothing (derivations address slot 0): the repair empties the other
        // slots and has nothing to write into slot 0.
        Comparison.StoredItem sum = sum(type, slots);
        List<Difference> differences = want == null && sum.attributes().isEmpty() ? List.of()
                : Comparison.compare(whole, want, sum);
        return new ItemChecks.Check(whole, want, sum, null, caughtUp, differences, members);
    }

    /** The stored slots as one item: counters summed, any other attribute (a leftover) as found. */
    private static Comparison.StoredItem sum(DerivedType type, List<ItemChecks.Check> slots) {
        Map<String, BigDecimal> counters = new HashMap<>();
        Map<String, AttributeValue> attributes = new HashMap<>();
        for (ItemChecks.Check slot : slots) {
            if (slot.have() == null) {
                continue;
            }
            slot.have().attributes().forEach((name, value) -> {
                if (value.n() != null) {
                    counters.merge(name, new BigDecimal(value.n()), BigDecimal::add);
                } else {
                    attributes.put(name, value);
                }
            });
        }
        counters.forEach((name, value) -> attributes.put(name, AttributeValue.fromN(value.toPlainString())));
        return new Comparison.StoredItem(type, attributes);
    }

    private static Optional<DerivedType> type(ItemChecks.Check check) {
        if (check.want() != null) {
            return Optional.of(check.want().type());
        }
        if (check.touches() != null) {
            return Optional.of(check.touches().type());
        }
        return Optional.ofNullable(check.have().declared());
    }
}
