package io.tally.core.users;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import java.util.List;

/** The kernel's part of the dashboard: the first tile of the Totals card, which every domain adds its tiles to. */
final class UsersDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global", tile("Users", "global.users", "users")));

    private UsersDashboard() {
    }
}
