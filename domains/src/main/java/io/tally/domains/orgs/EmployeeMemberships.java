package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The memberships of a deleted employee: those, in any team of its organisation, of this incarnation of it. */
public record EmployeeMemberships(String orgId, String employeeId, String incarnation) implements Cascade {
    /**
     * Found through the teams of its organisation (the reverse-lookup index would name them directly, but it is
     * eventually consistent): every membership of the employee lies in the partition of a team that exists, or of one
     * that was deleted, whose own cascade removes it.
     */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeAcross(OrgKeys.orgPk(orgId), OrgKeys.TEAM_PREFIX, Team.TEAM_ID,
                teamId -> OrgKeys.membership(orgId, teamId, employeeId), Membership.EMPLOYEE_INCARNATION,
                incarnation);
    }
}
