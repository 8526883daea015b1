package io.tally.stream.rebuild;

import java.util.List;

/**
 * The outcome of comparing stored derived data with a recomputation from the base items.
 *
 * @param baseItems        base items scanned
 * @param derivedItems     derived items found
 * @param unreadableItems  base items the derivations could not read (they contribute nothing, as in the stream)
 * @param differences      every differing attribute; empty when derived data is exact
 */
public record VerificationReport(long baseItems, long derivedItems, long unreadableItems, List<Difference> differences) {
    public VerificationReport {
        differences = List.copyOf(differences);
    }

    public boolean isExact() {
        return differences.isEmpty();
    }
}
