package io.tally.domains.orgs;

import static io.tally.core.derive.Announcement.created;
import static io.tally.core.derive.Announcement.removed;
import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.EntityType;
import io.tally.core.SharedCounter;
import io.tally.core.domain.DashboardSection.Each;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import io.tally.domains.orgs.OrgEvents.EmployeeDetail;
import io.tally.domains.orgs.OrgEvents.MembershipDetail;
import io.tally.domains.orgs.OrgEvents.OrgDetail;
import io.tally.domains.orgs.OrgEvents.TeamDetail;
import java.util.List;

/**
 * Organisations, teams and employees (seed 002), declared once: entity types, figures ({@link OrgFigures}), events
 * ({@link OrgEvents}), routes, the cascades that remove a deleted team's or employee's memberships
 * ({@link TeamMemberships}, {@link EmployeeMemberships}), and what the domain counts in the global totals. Keys are in
 * {@link OrgKeys}.
 */
public final class Orgs extends DeclaredDomain {
    public static final EntityType ORGANISATION = EntityType.base("Organisation");
    public static final EntityType TEAM = EntityType.base("Team");
    public static final EntityType EMPLOYEE = EntityType.base("Employee");
    public static final EntityType MEMBERSHIP = EntityType.base("Membership");
    /** Reserves a team id across organisations and says which organisation holds it. */
    public static final EntityType TEAM_REF = EntityType.base("TeamRef");
    /** Reserves an employee id across organisations and says which organisation holds it. */
    public static final EntityType EMPLOYEE_REF = EntityType.base("EmployeeRef");

    public static final SharedCounter GLOBAL_ORGS = SharedCounter.of(Users.GLOBAL_STATS, "orgs");
    public static final SharedCounter GLOBAL_EMPLOYEES = SharedCounter.of(Users.GLOBAL_STATS, "employees");

    /** Attribute names of {@link #ORG_STATS}. */
    public static final String ORG_TEAMS = "teams";
    /** The head count. */
    public static final String ORG_EMPLOYEES = "employees";
    public static final String ORG_MEMBERSHIPS = "memberships";
    /** Attribute name of {@link #TEAM_STATS}. */
    public static final String TEAM_MEMBERS = "members";

    /**
     * The organisations' part of the dashboard: their totals, and the head count of each organisation the page knows.
     * No read route lists organisations (a derived index of them would be the honest fix), so the page reads those the
     * address names ({@code ?orgs=}) and those the feeds' events have named.
     */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global",
                    tile("Organisations", "global.orgs", "orgs"),
                    tile("Employees", "global.employees", "employees")),
            DashboardSection.counts("orgs", "Organisations: head counts", OrgFigures.ORG,
                            OrgFigures.OrgStats::employees, Each.of("orgId", "orgs").andSeenInFeeds(), "{orgId} ({teams} teams)", "#d9822b")
                    .hint("No read route lists organisations: the dashboard shows those named in the address "
                            + "(`/dashboard?orgs=abc`) and those it has seen in the activity feed."));

    /** Events about organisations, teams and employees are not for a public feed. */
    public Orgs() {
        super(Declaration.of("orgs")
                .requires(UsersDomain.NAME)
                .entityTypes(ORGANISATION, TEAM, EMPLOYEE, MEMBERSHIP, TEAM_REF, EMPLOYEE_REF)
                .keyPatterns(ORGANISATION, "ORG#<orgId> / #METADATA#<orgId>")
                .keyPatterns(TEAM, "ORG#<orgId> / #TEAM#<teamId>")
                .keyPatterns(EMPLOYEE, "ORG#<orgId> / EMP#<employeeId>")
                .keyPatterns(MEMBERSHIP, "ORG#<orgId>#TEAM#<teamId> / ORG#<orgId>#EMP#<employeeId>")
                .keyPatterns(TEAM_REF, "TEAM#<teamId> / #TEAMREF#")
                .keyPatterns(EMPLOYEE_REF, "EMPLOYEE#<employeeId> / #EMPLOYEEREF#")
                .indexes(OrgKeys.REVERSE_LOOKUP)
                .views(OrgFigures.ORG, OrgFigures.TEAM, OrgFigures.ORGS, OrgFigures.EMPLOYEES)
                .resources(OrgRoutes.RESOURCE, PartRoutes.TEAMS, PartRoutes.EMPLOYEES)
                .lookup(ORGANISATION, OrgKeys::organisation)
                .sharedCounters(GLOBAL_ORGS, GLOBAL_EMPLOYEES)
                .events(OrgEvents.ORG_CREATED, OrgEvents.TEAM_CREATED, OrgEvents.TEAM_DELETED,
                        OrgEvents.EMPLOYEE_CREATED, OrgEvents.EMPLOYEE_DELETED, OrgEvents.EMPLOYEE_JOINED_TEAM,
                        OrgEvents.EMPLOYEE_LEFT_TEAM)
                .announces(OrgEvents.ORG_CREATED, Organisation.SCHEMA, Organisation::orgId, created(OrgDetail::of))
                .announces(OrgEvents.TEAM_CREATED, Team.SCHEMA, Team::teamId, created(TeamDetail::of))
                .announces(OrgEvents.TEAM_DELETED, Team.SCHEMA, Team::teamId, removed(TeamDetail::of))
                .announces(OrgEvents.EMPLOYEE_CREATED, Employee.SCHEMA, Employee::employeeId,
                        created(EmployeeDetail::of))
                .announces(OrgEvents.EMPLOYEE_DELETED, Employee.SCHEMA, Employee::employeeId,
                        removed(EmployeeDetail::of))
                // Left before joined: a membership overwritten by a later team's is one that left, then one that joined.
                .announces(OrgEvents.EMPLOYEE_LEFT_TEAM, Membership.SCHEMA, OrgEvents::pair,
                        removed(Membership::sameAs, MembershipDetail::of))
                .announces(OrgEvents.EMPLOYEE_JOINED_TEAM, Membership.SCHEMA, OrgEvents::pair,
                        created(Membership::sameAs, MembershipDetail::of))
                // A team's or an employee's removal removes its memberships in turn (of its incarnation); their own
                // REMOVE records then count its members and the organisation's memberships down.
                .removes(Team.SCHEMA, TeamMemberships::of, Membership.SCHEMA, TeamMemberships::of)
                .removes(Employee.SCHEMA, EmployeeMemberships::of, Membership.SCHEMA, EmployeeMemberships::of)
                .dashboard(DASHBOARD)
                .demoSeed(OrgsDemo::seed)
                .workload(OrgWorkload::new));
    }

    /** Its stores over the table and the routes that use them; routes reach the table only through the stores. */
    @Override
    public void routes(Router router, RouteContext context) {
        OrgStore orgs = new OrgStore(context.dynamo(), context.table());
        PartStore<Team> teams =
                new PartStore<>(context.dynamo(), context.table(), IdReservation.Kind.TEAM, Team.SCHEMA);
        PartStore<Employee> employees =
                new PartStore<>(context.dynamo(), context.table(), IdReservation.Kind.EMPLOYEE, Employee.SCHEMA);
        new OrgRoutes(orgs).register(router);
        new PartRoutes(context, teams, employees).register(router);
        new MembershipRoutes(context, teams, employees, new MembershipStore(context.dynamo(), context.table()))
                .register(router);
    }
}
