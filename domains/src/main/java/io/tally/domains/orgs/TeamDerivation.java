package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import java.time.Instant;

/**
 * An existing team counts in its organisation's {@code teams}. Its removal removes its memberships in turn
 * ({@link TeamMemberships}); their own REMOVE records then count its members and the organisation's memberships
 * down. Announces {@code TeamCreated} and {@code TeamDeleted}.
 */
public final class TeamDerivation extends PartDerivation<Team> {
    public static final String TEAM_CREATED = "TeamCreated";
    public static final String TEAM_DELETED = "TeamDeleted";

    /** The detail of {@code TeamCreated} and {@code TeamDeleted}. */
    @JsonPropertyOrder({"eventId", "teamId", "orgId", "name", "createdAt"})
    public record TeamDetail(String eventId, String teamId, String orgId, String name, Instant createdAt) {
    }

    public TeamDerivation() {
        super(Team.SCHEMA, TEAM_CREATED, TEAM_DELETED);
    }

    @Override
    protected Contribution contribution(Team team) {
        return Contribution.builder().count(Orgs.ORG_STATS, team.orgId(), Orgs.ORG_TEAMS, 1).build();
    }

    @Override
    protected Cascade memberships(Team team) {
        return new TeamMemberships(team.orgId(), team.teamId(), team.incarnation());
    }

    @Override
    protected Record detail(String id, Team team) {
        return new TeamDetail(id, team.teamId(), team.orgId(), team.name(), team.createdAt());
    }
}
