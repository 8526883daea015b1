package io.tally.core.derive;

import java.util.List;

/**
 * How a base item in one state stands to {@link Cascade cascades}, for a rebuild that looks for what a cascade should
 * have removed: {@code removes}, the cascades its own removal would ask for (a team: its memberships); and
 * {@code removedBy}, the cascades that would remove it (a membership: those of its team and of its employee). A
 * cascade some item is removed by, and that no existing item would ask for, belongs to an item removed without its
 * cascade having run (removed before the stream began, or with no stream processor running): the rebuild's repair
 * runs it.
 */
public record CascadeLinks(List<Cascade> removes, List<Cascade> removedBy) {
    public static final CascadeLinks NONE = new CascadeLinks(List.of(), List.of());

    public CascadeLinks {
        removes = List.copyOf(removes);
        removedBy = List.copyOf(removedBy);
    }

    public boolean isEmpty() {
        return removes.isEmpty() && removedBy.isEmpty();
    }
}
