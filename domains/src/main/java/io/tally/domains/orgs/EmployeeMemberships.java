package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The memberships of a deleted employee: those, in any team of its organisation, of this incarnation of it. */
public record EmployeeMemberships(String orgId, String employeeId, String incarnation) implements Cascade {
    /** What a removed employee's last state asks to remove. */
    static EmployeeMemberships of(Employee employee) {
        return new EmployeeMemberships(employee.orgId(), employee.employeeId(), employee.incarnation());
    }

    /** The cascade that would remove a membership: its employee's, of the incarnation it was added to. */
    static EmployeeMemberships of(Membership membership) {
        return new EmployeeMemberships(membership.orgId(), membership.employeeId(), membership.employeeIncarnation());
    }

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
