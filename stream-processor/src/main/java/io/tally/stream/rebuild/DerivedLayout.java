package io.tally.stream.rebuild;

import io.tally.core.DerivedSchema;
import io.tally.core.EntityType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which attributes of each derived item are counters and which belong to its owner's document. */
final class DerivedLayout {
    record Layout(Set<String> counters, Set<String> document) {
    }

    static final Map<EntityType, Layout> BY_TYPE = Map.of(
            EntityType.USER_STATS, new Layout(Set.copyOf(DerivedSchema.UserStats.COUNTERS),
                    Set.of(DerivedSchema.UserStats.USER_ID)),
            EntityType.POST_PROJECTION, new Layout(Set.of(DerivedSchema.PostProjection.COMMENTS),
                    Set.copyOf(DerivedSchema.PostProjection.DOCUMENT)),
            EntityType.SELECTOR_ENTRY, new Layout(Set.of(), Set.copyOf(DerivedSchema.SelectorEntry.DOCUMENT)),
            EntityType.GLOBAL_STATS, new Layout(Set.copyOf(DerivedSchema.GlobalStats.COUNTERS), Set.of()));

    /** Derived types whose items the verification compares; dead letters are records, not derived data. */
    static final List<EntityType> VERIFIED = List.of(
            EntityType.USER_STATS, EntityType.POST_PROJECTION, EntityType.SELECTOR_ENTRY, EntityType.GLOBAL_STATS);

    private DerivedLayout() {
    }
}
