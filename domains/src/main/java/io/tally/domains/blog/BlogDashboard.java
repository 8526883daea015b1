package io.tally.domains.blog;

import static io.tally.core.domain.DashboardSection.Figure.bar;
import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import java.util.List;

/** The blog's part of the dashboard: its totals, and the global totals' posts by status as bars. */
final class BlogDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Posts (not deleted)", "global.posts.live", "posts.created", "posts.updated"),
                    tile("Comments", "global.comments", "comments")),
            DashboardSection.bars("posts", "Posts by status", "/stats/global",
                    bar("created", "global.posts.created", "posts.created", "#2f6fdf"),
                    bar("updated", "global.posts.updated", "posts.updated", "#13a383"),
                    bar("deleted", "global.posts.deleted", "posts.deleted", "#9aa5b1")));

    private BlogDashboard() {
    }
}
