package io.tally.stream.rebuild;

import io.tally.core.EntityType;
import io.tally.core.blog.Blog;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.domains.Domains;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which attributes of each derived item are counters and which belong to its owner's document. */
final class DerivedLayout {
    record Layout(Set<String> counters, Set<String> document) {
    }

    static final Map<EntityType, Layout> BY_TYPE = Map.of(
            Domains.USER_STATS, new Layout(Set.copyOf(Domains.USER_STATS.counters()),
                    Set.of(Domains.USER_STATS_USER_ID)),
            Blog.POST_PROJECTION, new Layout(Set.of(Blog.Projection.COMMENTS),
                    Set.copyOf(Blog.POST_PROJECTION.document())),
            Catalogue.SELECTOR_ENTRY, new Layout(Set.of(), Set.copyOf(Catalogue.SELECTOR_ENTRY.document())),
            Domains.GLOBAL_STATS, new Layout(Set.copyOf(Domains.GLOBAL_STATS.counters()), Set.of()));

    /** Derived types whose items the verification compares; dead letters are records, not derived data. */
    static final List<EntityType> VERIFIED = List.of(
            Domains.USER_STATS, Blog.POST_PROJECTION, Catalogue.SELECTOR_ENTRY, Domains.GLOBAL_STATS);

    private DerivedLayout() {
    }
}
