package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.http.Access;
import io.tally.core.view.CounterView;
import io.tally.core.view.Existence;
import io.tally.core.view.SharedCounts;

/**
 * The organisations' figures, declared as views (in a class of their own: they read the parts' schemas): per
 * organisation, its existing teams, employees and memberships in one item, {@code ORG#<orgId> / #STATS#}, with its route
 * {@code GET /stats/orgs/{orgId}}; per team, its members, {@code TEAM#<teamId> / #STATS#}, whose route stays the
 * domain's ({@link OrgRoutes}: its answer names the team's organisation, read from the team's id reservation); and the
 * organisations and employees in the global totals.
 */
public final class OrgFigures {
    /** The route's answer: the counters in their declared order. */
    @JsonPropertyOrder({"orgId", Orgs.ORG_TEAMS, Orgs.ORG_EMPLOYEES, Orgs.ORG_MEMBERSHIPS})
    public record OrgStats(String orgId, long teams, long employees, long memberships) {
    }

    /** A team's counted members, as stored. */
    record TeamMembers(String teamId, long members) {
    }

    /**
     * Teams, employees and memberships of an organisation. Shared: memberships live in their team's partition, so the
     * records of every team's partition change it.
     */
    public static final CounterView<Team, OrgStats> ORG = CounterView.over(Team.SCHEMA, OrgStats.class)
            .key("ORG#<orgId> / #STATS#", OrgKeys::orgStats)
            .groupBy(OrgStats::orgId, Team::orgId).count(OrgStats::teams)
            .alsoFrom(Employee.SCHEMA, employees -> employees.groupBy(OrgStats::orgId, Employee::orgId)
                    .count(OrgStats::employees))
            .alsoFrom(Membership.SCHEMA, memberships -> memberships.groupBy(OrgStats::orgId, Membership::orgId)
                    .count(OrgStats::memberships))
            .shared()
            .read("/stats/orgs/{orgId}", Access.READ_SIDE, Existence.of(Orgs.ORGANISATION, "organisation"),
                    "An organisation's teams, head count and memberships")
            .build();

    /** A team's existing memberships; one item per team id. */
    public static final CounterView<Membership, TeamMembers> TEAM = CounterView.over(Membership.SCHEMA,
                    TeamMembers.class)
            .named("TeamStats").key("TEAM#<teamId> / #STATS#", OrgKeys::teamStats)
            .groupBy(TeamMembers::teamId, Membership::teamId).count(TeamMembers::members)
            .build();

    /** The global totals' organisations and employees. */
    public static final SharedCounts<Organisation> ORGS = SharedCounts.over(Organisation.SCHEMA)
            .global(Orgs.GLOBAL_ORGS).build();
    public static final SharedCounts<Employee> EMPLOYEES = SharedCounts.over(Employee.SCHEMA)
            .global(Orgs.GLOBAL_EMPLOYEES).build();

    private OrgFigures() {
    }
}
