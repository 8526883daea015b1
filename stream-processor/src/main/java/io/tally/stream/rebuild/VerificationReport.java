package io.tally.stream.rebuild;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of comparing stored derived data with a recomputation from the base items at a stream position.
 *
 * @param baseItems        base items at the position
 * @param derivedItems     derived items found
 * @param unreadableItems  base items the derivations could not read (they contribute nothing, as in the stream)
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
public record VerificationReport(long baseItems, long derivedItems, long unreadableItems, List<Difference> differences,
                                 long behindItems, StreamPosition position, List<String> undoneCascades) {
    public VerificationReport {
        differences = List.copyOf(differences);
        undoneCascades = List.copyOf(undoneCascades);
        Objects.requireNonNull(position, "position");
    }

    /**
     * Whether every derived item has caught up with the position and equals the recomputation, and no cascade is
     * left undone.
     */
    public boolean isExact() {
        return differences.isEmpty() && behindItems == 0 && undoneCascades.isEmpty();
    }
}
