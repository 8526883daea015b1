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
 * The items of a shared type ({@link DerivedType#isShared}), checked together per subject: the base item and the
 * per-lineage partials beside it (a user's stats), and for a slotted type the base items and partials of every slot
 * (the global totals; one day's downloads). Which partial holds how much depends on which stream shard delivered which
 * record (and the lineage it continued), and on which partials were folded into their base item, which the table does not tell; only the sum is
 * derived data. So the recomputation holds the whole in the item derivations address (the base item, slot 0's for a
 * slotted type), the comparison sums the stored members, and the group has caught up with the stream position when
 * every member has. Its repair writes the whole into that item and empties every other member that holds anything,
 * each with the watermarks of the shards whose records change it: one transaction, so that the sum is never half
 * repaired.
 */
final class SharedChecks {
    /** The members of each subject of a shared type, by the key that names them all ({@link DerivedType#whole}). */
    private final Map<Key, Group> groups = new LinkedHashMap<>();
    private final AppliedRecords applied;

    SharedChecks(AppliedRecords applied) {
        this.applied = applied;
    }

    private record Group(DerivedType type, List<ItemChecks.Check> slots) {
    }

    /** Takes the check if its item is of a shared type; false when it is not. */
    boolean add(ItemChecks.Check check) {
        Optional<DerivedType> type = type(check).filter(DerivedType::isShared);
        type.ifPresent(t -> groups.computeIfAbsent(t.whole(check.key()),
                k -> new Group(t, new ArrayList<>())).slots().add(check));
        return type.isPresent();
    }

    /** One check per subject of a shared type seen: the sum of its members against the whole. */
    List<ItemChecks.Check> checks() {
        List<ItemChecks.Check> checks = new ArrayList<>();
        groups.forEach((whole, group) -> checks.add(group(whole, group.type(), group.slots(), applied)));
        return checks;
    }

    private static ItemChecks.Check group(Key whole, DerivedType type, List<ItemChecks.Check> slots,
                                          AppliedRecords applied) {
        Key first = type.isSlotted() ? type.inSlot(whole, "0") : whole;
        DerivedState.Item want = null;
        List<ItemChecks.Check> members = new ArrayList<>();
        boolean caughtUp = true;
        boolean settled = true;
        for (ItemChecks.Check slot : slots) {
            caughtUp &= slot.caughtUp();
            settled &= slot.settled();
            if (slot.key().equals(first)) {
                want = slot.want();
                members.add(slot);
            } else if (slot.want() != null) {
                throw new IllegalStateException("a derivation addressed " + slot.key() + ": shared items are addressed"
                        + " at their base item (slot 0 for a slotted type), their partials placed by the engine");
            } else if (!slot.caughtUp() || slot.have() != null && !slot.have().attributes().isEmpty()) {
                members.add(ItemChecks.check(slot.key(), null, slot.have(), slot.touches(), applied));
            }
        }
        // Without the addressed item among them, the whole is nothing: the repair empties the other members and has
        // nothing to write into the addressed item.
        Comparison.StoredItem sum = sum(type, slots);
        List<Difference> differences = want == null && sum.attributes().isEmpty() ? List.of()
                : Comparison.compare(whole, want, sum);
        return new ItemChecks.Check(whole, want, sum, null, caughtUp, settled, differences, members);
    }

    /** The stored members as one item: counters summed, any other attribute (the document, a leftover) as found. */
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
