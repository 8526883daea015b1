package io.tally.core.orgs;

import io.tally.core.DerivedType;
import io.tally.core.DomainSchema;
import io.tally.core.EntityType;
import java.util.List;

/**
 * The declarations of organisations, teams and employees (seed 002): entity types, derived types, and what the
 * domain counts in the global totals. Keys are in {@link OrgKeys}.
 */
public final class Orgs {
    public static final EntityType ORGANISATION = EntityType.base("Organisation");
    public static final EntityType TEAM = EntityType.base("Team");
    public static final EntityType EMPLOYEE = EntityType.base("Employee");
    public static final EntityType MEMBERSHIP = EntityType.base("Membership");
    /** Reserves a team id across organisations and says which organisation holds it. */
    public static final EntityType TEAM_REF = EntityType.base("TeamRef");
    /** Reserves an employee id across organisations and says which organisation holds it. */
    public static final EntityType EMPLOYEE_REF = EntityType.base("EmployeeRef");

    public static final String GLOBAL_ORGS = "orgs";
    public static final String GLOBAL_EMPLOYEES = "employees";

    /** Attribute names of {@link #ORG_STATS}. */
    public static final String ORG_TEAMS = "teams";
    /** The head count. */
    public static final String ORG_EMPLOYEES = "employees";
    public static final String ORG_MEMBERSHIPS = "memberships";
    /** Attribute name of {@link #TEAM_STATS}. */
    public static final String TEAM_MEMBERS = "members";

    /** One per organisation: its existing teams, employees and memberships. */
    public static final DerivedType ORG_STATS = DerivedType.named("OrgStats")
            .key("ORG#<orgId> / #STATS#", OrgKeys::orgStats)
            .counters(ORG_TEAMS, ORG_EMPLOYEES, ORG_MEMBERSHIPS)
            .build();

    /** One per team id: the team's existing memberships. */
    public static final DerivedType TEAM_STATS = DerivedType.named("TeamStats")
            .key("TEAM#<teamId> / #STATS#", OrgKeys::teamStats)
            .counters(TEAM_MEMBERS)
            .build();

    public static final DomainSchema SCHEMA = new DomainSchema("orgs",
            List.of(ORGANISATION, TEAM, EMPLOYEE, MEMBERSHIP, TEAM_REF, EMPLOYEE_REF),
            List.of(ORG_STATS, TEAM_STATS),
            List.of(),
            List.of(GLOBAL_ORGS, GLOBAL_EMPLOYEES));

    private Orgs() {
    }
}
