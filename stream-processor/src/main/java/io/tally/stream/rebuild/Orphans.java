package io.tally.stream.rebuild;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeLinks;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cascades a rebuild finds undone: base items that a cascade would remove, whose owner (the item whose removal
 * asks for that cascade) no longer exists, e.g. memberships of a team deleted before the stream began or while no
 * stream processor ran. Items enter and leave in the states the rebuild counts ({@link Recomputation#count}), so
 * the counts describe the items at the stream's position. Not thread-safe.
 */
final class Orphans {
    /** Per cascade: items that would ask for it, items it would remove. */
    private final Map<Cascade, long[]> counts = new HashMap<>();

    void count(CascadeLinks links, int sign) {
        links.removes().forEach(cascade -> counts.computeIfAbsent(cascade, c -> new long[2])[0] += sign);
        links.removedBy().forEach(cascade -> counts.computeIfAbsent(cascade, c -> new long[2])[1] += sign);
    }

    /** The cascades that would remove items and that no existing item asks for, in a stable order. */
    List<Cascade> undone() {
        return counts.entrySet().stream()
                .filter(entry -> entry.getValue()[0] <= 0 && entry.getValue()[1] > 0)
                .map(Map.Entry::getKey)
                .sorted(Comparator.comparing(Cascade::describe))
                .toList();
    }
}
