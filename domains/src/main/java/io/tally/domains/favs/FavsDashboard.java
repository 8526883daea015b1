package io.tally.domains.favs;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import java.util.List;

/** The favourites' part of the dashboard: their total (a user's favourites are not the read side's to show). */
final class FavsDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global", tile("Favourites", "global.favourites", "favourites")));

    private FavsDashboard() {
    }
}
