package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;

/** The memberships of a deleted team: those in its partition that were added to this incarnation of it. */
public record TeamMemberships(String orgId, String teamId, String incarnation) implements Cascade {
    @Override
    public String describe() {
        return "memberships of team " + teamId + " (org " + orgId + ", incarnation " + incarnation + ")";
    }
}
