package io.tally.domains.orgs;

import io.tally.core.Timestamps;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An existing membership counts in its team's {@code members} and its organisation's {@code memberships}, whoever
 * removes it: the API, or the stream processor's cascade after its team or employee was deleted.
 *
 * <p>{@code EmployeeJoinedTeam} when a membership appears, {@code EmployeeLeftTeam} when it goes. A membership
 * overwritten by one of a later team or employee of the same ids (its team was deleted and created again before the
 * cascade reached it) is one that left and one that joined; a role change is neither.
 */
public final class MembershipDerivation extends EntityDerivation<Membership> {
    public static final String EMPLOYEE_JOINED_TEAM = "EmployeeJoinedTeam";
    public static final String EMPLOYEE_LEFT_TEAM = "EmployeeLeftTeam";

    public MembershipDerivation() {
        super(Orgs.MEMBERSHIP);
    }

    @Override
    protected Membership read(Map<String, AttributeValue> image) {
        return Membership.fromItem(image);
    }

    @Override
    protected Contribution contribution(Membership membership) {
        return Contribution.builder()
                .count(Orgs.TEAM_STATS, membership.teamId(), Orgs.TEAM_MEMBERS, 1)
                .count(Orgs.ORG_STATS, membership.orgId(), Orgs.ORG_MEMBERSHIPS, 1)
                .build();
    }

    /** The cascades of its team and of its employee, each of the incarnation it was added to. */
    @Override
    protected List<Cascade> removedBy(Membership membership) {
        return List.of(new TeamMemberships(membership.orgId(), membership.teamId(), membership.teamIncarnation()),
                new EmployeeMemberships(membership.orgId(), membership.employeeId(),
                        membership.employeeIncarnation()));
    }

    @Override
    protected List<DomainEvent> events(String eventId, Membership before, Membership after) {
        List<DomainEvent> events = new ArrayList<>(2);
        if (before != null && !before.sameAs(after)) {
            events.add(event(eventId, EMPLOYEE_LEFT_TEAM, before));
        }
        if (after != null && !after.sameAs(before)) {
            events.add(event(eventId, EMPLOYEE_JOINED_TEAM, after));
        }
        return events;
    }

    /** The subject is team and employee: one record may announce a departure and an arrival of the same pair. */
    private static DomainEvent event(String eventId, String detailType, Membership membership) {
        String id = DomainEvent.idFor(eventId, detailType, membership.teamId() + "/" + membership.employeeId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("orgId", membership.orgId());
        detail.put("teamId", membership.teamId());
        detail.put("employeeId", membership.employeeId());
        detail.put("role", membership.role());
        detail.put("addedAt", Timestamps.format(membership.addedAt()));
        return new DomainEvent(id, detailType, detail);
    }
}
