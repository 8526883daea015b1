package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;

/** The memberships of a deleted employee: those, in any team of its organisation, of this incarnation of it. */
public record EmployeeMemberships(String orgId, String employeeId, String incarnation) implements Cascade {
    @Override
    public String describe() {
        return "memberships of employee " + employeeId + " (org " + orgId + ", incarnation " + incarnation + ")";
    }
}
