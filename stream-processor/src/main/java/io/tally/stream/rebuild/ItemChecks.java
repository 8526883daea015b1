package io.tally.stream.rebuild;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Each derived item of a recomputation at a stream position: whether its stored state has caught up with the
 * position, how it differs, and the write that repairs it (pure).
 */
final class ItemChecks {
    private ItemChecks() {
    }

    /**
     * One derived item.
     *
     * @param want      what it should hold at the position, or null (nothing)
     * @param have      what the scan found, or null (no item)
     * @param touches   what the stream's records do to it, or null (nothing)
     * @param caughtUp  whether the stored item reflects every record up to the position that changes it (then its
     *                  content is final at the position and compares); an item that has not is behind the stream
     * @param settled   whether nothing is left for the stream processor to do to it: caught up, or missing although
     *                  the shard cursors read before the scan say every record up to the position that changes it was
     *                  applied ({@link #settled}); a settled item is compared, any other is behind
     * @param slots     for the items of a slotted type taken together ({@link SharedChecks}): each slot's own
     *                  check; empty for any other item
     */
    record Check(Key key, DerivedState.Item want, Comparison.StoredItem have, StreamChanges.Touches touches,
                 boolean caughtUp, boolean settled, List<Difference> differences, List<Check> slots) {
        Check {
            slots = List.copyOf(slots);
        }

        /** Whether a repair writes it: it differs, or its watermarks are behind the position. */
        boolean needsRepair() {
            return !caughtUp || !differences.isEmpty();
        }
    }

    /**
     * Every derived item that is computed, stored or changed by a record, in table order; the items of each slotted
     * type as one check of their sum ({@link SharedChecks}).
     */
    static List<Check> checks(Map<Key, DerivedState.Item> expected, Map<Key, Comparison.StoredItem> actual,
                              Map<Key, StreamChanges.Touches> touches) {
        return checks(expected, actual, touches, AppliedRecords.NONE);
    }

    /**
     * As {@link #checks(Map, Map, Map)}, an item also taken as caught up when the cursors read before the scan say
     * every record that changes it was applied ({@link AppliedRecords}).
     */
    static List<Check> checks(Map<Key, DerivedState.Item> expected, Map<Key, Comparison.StoredItem> actual,
                              Map<Key, StreamChanges.Touches> touches, AppliedRecords applied) {
        SharedChecks slotted = new SharedChecks(applied);
        Set<Key> keys = new TreeSet<>(Comparison.KEY_ORDER);
        keys.addAll(expected.keySet());
        keys.addAll(actual.keySet());
        keys.addAll(touches.keySet());
        List<Check> checks = new ArrayList<>(keys.size());
        for (Key key : keys) {
            Check check = check(key, expected.get(key), actual.get(key), touches.get(key), applied);
            if (!slotted.add(check)) {
                checks.add(check);
            }
        }
        checks.addAll(slotted.checks());
        return checks;
    }

    /** The check of one item on its own. */
    static Check check(Key key, DerivedState.Item want, Comparison.StoredItem have, StreamChanges.Touches touched,
                       AppliedRecords applied) {
        List<Difference> differences = want == null && have == null ? List.of() : Comparison.compare(key, want, have);
        return new Check(key, want, have, touched, caughtUp(have, touched), settled(have, touched, applied),
                differences, List.of());
    }

    /**
     * Whether the stored item holds, for every shard whose records change it, a watermark at least the last such
     * record: the engine sets the watermark to the last record it applied to the item, so the item then reflects
     * every record up to the position (a watermark past the position is impossible here: the stream was read after
     * the item was scanned).
     */
    static boolean caughtUp(Comparison.StoredItem have, StreamChanges.Touches touches) {
        if (touches == null) {
            return true;
        }
        for (Map.Entry<String, String> change : touches.lastChange().entrySet()) {
            String watermark = have == null ? null : have.watermarks().get(Watermarks.attributeName(change.getKey()));
            if (watermark == null || watermark.compareTo(change.getValue()) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the stream processor has nothing left to do to the item: it is {@linkplain #caughtUp caught up}, or it is
     * missing although the shard cursors read before the scan say the last record of each shard that changes it was
     * applied ({@link AppliedRecords}): it was deleted after the stream processor wrote it (by hand, say), and no
     * record will bring it back, so it compares as missing instead of staying behind on every run. Only a missing
     * item: one that exists with watermarks below records applied to it would take such a record again if it were
     * delivered again, so it stays behind, for a repair to set its watermarks.
     */
    static boolean settled(Comparison.StoredItem have, StreamChanges.Touches touches, AppliedRecords applied) {
        if (caughtUp(have, touches)) {
            return true;
        }
        return have == null && touches.lastChange().entrySet().stream()
                .allMatch(change -> applied.applied(change.getKey(), change.getValue()));
    }

    /**
     * The repair of one item: its content at the position, the position as its watermark in every shard whose
     * records change it (the engine then skips those records, which the content reflects), guarded so that an
     * item a stream processor has moved past the position in an open shard, or into a shard the position does not
     * know ({@code unknownShards}), is refused rather than overwritten.
     *
     * <p>Removed: every content attribute the item was seen to hold or a record up to the position may have written,
     * that the content does not hold; any other attribute can only come from records past the position, which the
     * guards refuse.
     */
    static RepairWrite repair(Check check, StreamPosition position, Set<String> unknownShards) {
        Map<String, AttributeValue> values = Comparison.wanted(check.want());
        Set<String> removals = new HashSet<>();
        if (check.have() != null) {
            removals.addAll(check.have().attributes().keySet());
        }
        Map<String, AttributeValue> bookkeeping = new HashMap<>();
        if (check.want() != null && check.want().revision() != null) {
            // The document's source revision: the stream's next write of the source (higher) lands, older ones do not.
            bookkeeping.put(TableSchema.SOURCE_REVISION, AttributeValue.fromN(Long.toString(check.want().revision())));
        }
        if (check.touches() != null) {
            removals.addAll(check.touches().attributes());
            for (String shard : check.touches().lastChange().keySet()) {
                bookkeeping.put(Watermarks.attributeName(shard), AttributeValue.fromS(position.last(shard)));
            }
        }
        removals.removeAll(values.keySet());
        Map<String, String> atMost = new HashMap<>();
        Set<String> absent = new HashSet<>();
        for (String shard : position.openShards()) {
            String last = position.last(shard);
            if (last == null) {
                absent.add(Watermarks.attributeName(shard));
            } else {
                atMost.put(Watermarks.attributeName(shard), last);
            }
        }
        unknownShards.forEach(shard -> absent.add(Watermarks.attributeName(shard)));
        return new RepairWrite(check.key(), type(check), values, removals, bookkeeping, atMost, absent);
    }

    /** The writes that repair a check: one item's, or each slot's of a slotted type (which must all land or none). */
    static List<RepairWrite> repairs(Check check, StreamPosition position, Set<String> unknownShards) {
        if (check.slots().isEmpty()) {
            return List.of(repair(check, position, unknownShards));
        }
        return check.slots().stream().map(slot -> repair(slot, position, unknownShards)).toList();
    }

    private static EntityType type(Check check) {
        if (check.want() != null) {
            return check.want().type().entityType();
        }
        return check.have() != null ? check.have().type() : check.touches().type().entityType();
    }
}
