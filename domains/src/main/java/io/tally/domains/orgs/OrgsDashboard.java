package io.tally.domains.orgs;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.DashboardSection.Each;
import io.tally.core.domain.DashboardSection.Rows;
import java.util.List;

/**
 * The organisations' part of the dashboard: their totals, and the head count of each organisation the page knows. No
 * read route lists organisations (a derived index of them would be the honest fix), so the page reads those the address
 * names ({@code ?orgs=}) and those the feeds' events have named.
 */
final class OrgsDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Organisations", "global.orgs", "orgs"),
                    tile("Employees", "global.employees", "employees")),
            DashboardSection.bars("orgs", "Organisations: head counts", "/stats/orgs/{orgId}",
                            Each.of("orgId", "orgs").andSeenInFeeds(),
                            Rows.ofAnswers("employees", "{orgId} ({teams} teams)").figure("org.{orgId}.employees"),
                            "#d9822b")
                    .hint("No read route lists organisations: the dashboard shows those named in the address "
                            + "(`/dashboard?orgs=abc`) and those it has seen in the activity feed."));

    private OrgsDashboard() {
    }
}
