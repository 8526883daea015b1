package io.tally.domains.orgs;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.domain.TableIndex;

/**
 * The key patterns of organisations, teams and employees (seed 002). Identifiers are validated by
 * {@link io.tally.core.Ids} before they get here, so a {@code #} never reaches a key from user input.
 *
 * <pre>
 * entity          pk                              sk                          lookupKey (ReverseLookup index)
 * Organisation    ORG#&lt;orgId&gt;                     #METADATA#&lt;orgId&gt;
 * Team            ORG#&lt;orgId&gt;                     #TEAM#&lt;teamId&gt;               = sk
 * Employee        ORG#&lt;orgId&gt;                     EMP#&lt;employeeId&gt;             = sk
 * Membership      ORG#&lt;orgId&gt;#TEAM#&lt;teamId&gt;      ORG#&lt;orgId&gt;#EMP#&lt;employeeId&gt;  = sk
 * TeamRef         TEAM#&lt;teamId&gt;                   #TEAMREF#                   (reserves the id across organisations)
 * EmployeeRef     EMPLOYEE#&lt;employeeId&gt;           #EMPLOYEEREF#
 * derived:
 * OrgStats        ORG#&lt;orgId&gt;                     #STATS#
 * TeamStats       TEAM#&lt;teamId&gt;                   #STATS#
 * </pre>
 */
public final class OrgKeys {
    public static final String ORG_PREFIX = "ORG#";
    public static final String METADATA_PREFIX = "#METADATA#";
    public static final String TEAM_PREFIX = "#TEAM#";
    public static final String EMPLOYEE_PREFIX = "EMP#";
    public static final String TEAM_IN_ORG = "#TEAM#";
    public static final String EMPLOYEE_IN_ORG = "#EMP#";
    public static final String TEAM_REF_PREFIX = "TEAM#";
    public static final String TEAM_REF_SK = "#TEAMREF#";
    public static final String EMPLOYEE_REF_PREFIX = "EMPLOYEE#";
    public static final String EMPLOYEE_REF_SK = "#EMPLOYEEREF#";
    public static final String STATS_SK = "#STATS#";

    /**
     * Sparse GSI of seed 002, the reverse lookup: hash {@link #LOOKUP_KEY}, a copy of the sort key carried only by
     * teams, employees and memberships (the seed indexes the sort key itself, which would put every item of the table
     * in the index); range {@code pk}. It answers "team by id", "employee by id" and "teams of an employee".
     */
    public static final String REVERSE_LOOKUP_INDEX = "ReverseLookup";
    public static final String LOOKUP_KEY = "lookupKey";

    static final TableIndex REVERSE_LOOKUP = TableIndex.global(REVERSE_LOOKUP_INDEX, LOOKUP_KEY, TableSchema.PK)
            .described("Seed 002's reverse lookup (the sort key as hash key): team by id, employee by id, teams of an"
                    + " employee. Sparse: only teams, employees and memberships carry lookupKey (a copy of their sk).");

    private OrgKeys() {
    }

    public static String orgPk(String orgId) {
        return ORG_PREFIX + orgId;
    }

    public static Key organisation(String orgId) {
        return new Key(orgPk(orgId), METADATA_PREFIX + orgId);
    }

    public static Key team(String orgId, String teamId) {
        return new Key(orgPk(orgId), teamLookup(teamId));
    }

    public static Key employee(String orgId, String employeeId) {
        return new Key(orgPk(orgId), employeeLookup(employeeId));
    }

    /** The reverse lookup of a team: its sort key, unique because team ids are unique across organisations. */
    public static String teamLookup(String teamId) {
        return TEAM_PREFIX + teamId;
    }

    public static String employeeLookup(String employeeId) {
        return EMPLOYEE_PREFIX + employeeId;
    }

    /** The partition of a team's memberships. */
    public static String membershipsPk(String orgId, String teamId) {
        return orgPk(orgId) + TEAM_IN_ORG + teamId;
    }

    /** A membership's sort key, and its reverse lookup: every membership of one employee shares it. */
    public static String membershipSk(String orgId, String employeeId) {
        return orgPk(orgId) + EMPLOYEE_IN_ORG + employeeId;
    }

    public static Key membership(String orgId, String teamId, String employeeId) {
        return new Key(membershipsPk(orgId, teamId), membershipSk(orgId, employeeId));
    }

    public static Key teamRef(String teamId) {
        return new Key(TEAM_REF_PREFIX + teamId, TEAM_REF_SK);
    }

    public static Key employeeRef(String employeeId) {
        return new Key(EMPLOYEE_REF_PREFIX + employeeId, EMPLOYEE_REF_SK);
    }

    /** An organisation's stats sit in its partition; {@code #STATS#} matches neither {@code #TEAM#} nor {@code EMP#}. */
    public static Key orgStats(String orgId) {
        return new Key(orgPk(orgId), STATS_SK);
    }

    /** A team's stats sit beside its reservation, so they are found by team id alone. */
    public static Key teamStats(String teamId) {
        return new Key(TEAM_REF_PREFIX + teamId, STATS_SK);
    }
}
