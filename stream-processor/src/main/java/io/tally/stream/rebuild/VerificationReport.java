package io.tally.stream.rebuild;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The outcome of comparing stored derived data with a recomputation from the base items at a stream position.
 *
 * @param baseItems        base items at the position
 * @param derivedItems     derived items found
 * @param unknownTypes     base items of entity types no loaded domain declares, by type name (they contribute nothing:
 *                         a domain's jar was left out, or the items are not Tally's)
 * @param unreadableTypes  base items of declared types that their derivation cannot read, by type (they contribute
 *                         nothing, as in the stream, which dead-letters their records)
 * @param undeclaredDerivedTypes items of types no loaded domain declares that carry the stream processor's watermarks:
 *                         derived items of a domain whose jar was left out or that was removed, by type (not compared)
 * @param differences      every differing attribute of the derived items that have caught up with the position;
 *                         empty when those are exact
 * @param behindItems      derived items the stream processor has not yet brought up to the position (records up to
 *                         it that change them are not applied yet): not compared
 * @param position         the stream position the recomputation is consistent with
 * @param undoneCascades    cascades that would remove base items at the position and that no existing item asks for
 *                          (e.g. {@code TeamMemberships[orgId=o1, teamId=t1, incarnation=...]}): their owner was removed
 *                          without the cascade running (before the stream began, or with no stream processor), or
 *                          its removal is still to be processed; a repair runs them
 */
public record VerificationReport(long baseItems, long derivedItems, Map<String, Long> unknownTypes,
                                 Map<String, Long> unreadableTypes, Map<String, Long> undeclaredDerivedTypes,
                                 List<Difference> differences,
                                 long behindItems, StreamPosition position, List<String> undoneCascades) {
    public VerificationReport {
        unknownTypes = Collections.unmodifiableMap(new TreeMap<>(unknownTypes));
        unreadableTypes = Collections.unmodifiableMap(new TreeMap<>(unreadableTypes));
        undeclaredDerivedTypes = Collections.unmodifiableMap(new TreeMap<>(undeclaredDerivedTypes));
        differences = List.copyOf(differences);
        undoneCascades = List.copyOf(undoneCascades);
        Objects.requireNonNull(position, "position");
    }

    /** Base items that contribute nothing: of an unknown entity type, or unreadable by their derivation. */
    public long unreadableItems() {
        return unknownTypes.values().stream().mapToLong(Long::longValue).sum()
                + unreadableTypes.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Whether every derived item has caught up with the position and equals the recomputation, and no cascade is
     * left undone.
     */
    public boolean isExact() {
        return differences.isEmpty() && behindItems == 0 && undoneCascades.isEmpty();
    }
}
