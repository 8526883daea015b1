package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The memberships of a deleted team: those in its partition that were added to this incarnation of it. */
public record TeamMemberships(String orgId, String teamId, String incarnation) implements Cascade {
    /** The team's partition. */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeInPartition(OrgKeys.membershipsPk(orgId, teamId), Membership.TEAM_INCARNATION,
                incarnation);
    }
}
