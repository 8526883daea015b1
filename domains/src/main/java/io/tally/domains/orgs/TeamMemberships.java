package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The memberships of a deleted team: those in its partition that were added to this incarnation of it. */
public record TeamMemberships(String orgId, String teamId, String incarnation) implements Cascade {
    /** What a removed team's last state asks to remove. */
    static TeamMemberships of(Team team) {
        return new TeamMemberships(team.orgId(), team.teamId(), team.incarnation());
    }

    /** The cascade that would remove a membership: its team's, of the incarnation it was added to. */
    static TeamMemberships of(Membership membership) {
        return new TeamMemberships(membership.orgId(), membership.teamId(), membership.teamIncarnation());
    }

    /** The team's partition. */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeInPartition(OrgKeys.membershipsPk(orgId, teamId), Membership.TEAM_INCARNATION,
                incarnation);
    }
}
