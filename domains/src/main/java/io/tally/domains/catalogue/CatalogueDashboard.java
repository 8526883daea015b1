package io.tally.domains.catalogue;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.DashboardSection.Each;
import io.tally.core.domain.DashboardSection.Rows;
import java.util.List;

/**
 * The catalogue's part of the dashboard: its totals, and a leaderboard a selector, the top five of each selector the
 * address names ({@code ?selectors=}).
 */
final class CatalogueDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Catalogue items", "global.items", "items"),
                    tile("Completed", "global.completed", "completed")),
            DashboardSection.tables("selectors", "Selector leaderboards", "/selectors/{selector}?limit=5",
                            Each.of("selector", "selectors", "back-catalogue", "global-cycle:5"),
                            Rows.of("items", "score", "{title} ({itemId})", "{itemId}")
                                    .figure("selector.{selector}.{itemId}").columns("Item", "Score"))
                    .hint("Other selectors: `/dashboard?selectors=back-catalogue,global-cycle:5`"));

    private CatalogueDashboard() {
    }
}
