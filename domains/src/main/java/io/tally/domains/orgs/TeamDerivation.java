package io.tally.domains.orgs;

import io.tally.core.Timestamps;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import java.util.LinkedHashMap;
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
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("teamId", team.teamId());
        detail.put("orgId", team.orgId());
        detail.put("name", team.name());
        detail.put("createdAt", Timestamps.format(team.createdAt()));
        return new DomainEvent(id, detailType, detail);
    }
}
