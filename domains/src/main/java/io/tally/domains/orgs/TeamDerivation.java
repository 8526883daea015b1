package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An existing team counts in its organisation's {@code teams}. Its removal removes its memberships in turn
 * ({@link TeamMemberships}); their own REMOVE records then count its members and the organisation's memberships
 * down. Announces {@code TeamCreated} and {@code TeamDeleted}.
 */
public final class TeamDerivation extends EntityDerivation<Team> {
    public static final String TEAM_CREATED = "TeamCreated";
    public static final String TEAM_DELETED = "TeamDeleted";

    /** The detail of {@code TeamCreated} and {@code TeamDeleted}. */
    @JsonPropertyOrder({"eventId", "teamId", "orgId", "name", "createdAt"})
    public record TeamDetail(String eventId, String teamId, String orgId, String name, Instant createdAt) {
    }

    public TeamDerivation() {
        super(Orgs.TEAM);
    }

    @Override
    protected Team read(Map<String, AttributeValue> image) {
        return Team.fromItem(image);
    }

    @Override
    protected Contribution contribution(Team team) {
        return Contribution.builder().count(Orgs.ORG_STATS, team.orgId(), Orgs.ORG_TEAMS, 1).build();
    }

    /** Teams are never modified: a change is a creation or a removal. */
    @Override
    protected List<Cascade> cascades(Team before, Team after) {
        if (before != null && after == null) {
            return List.of(new TeamMemberships(before.orgId(), before.teamId(), before.incarnation()));
        }
        return List.of();
    }

    @Override
    protected List<DomainEvent> events(String eventId, Team before, Team after) {
        if (before == null && after != null) {
            return List.of(event(eventId, TEAM_CREATED, after));
        }
        if (before != null && after == null) {
            return List.of(event(eventId, TEAM_DELETED, before));
        }
        return List.of();
    }

    private static DomainEvent event(String eventId, String detailType, Team team) {
        String id = DomainEvent.idFor(eventId, detailType, team.teamId());
        return DomainEvent.of(id, detailType, new TeamDetail(id, team.teamId(), team.orgId(), team.name(),
                team.createdAt()));
    }
}
