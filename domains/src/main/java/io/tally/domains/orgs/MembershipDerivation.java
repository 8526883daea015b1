package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;

/**
 * An existing membership counts in its team's {@code members} and its organisation's {@code memberships} (views,
 * {@link OrgFigures}), whoever removes it: the API, or the stream processor's cascade after its team or employee was
 * deleted.
 *
 * <p>{@code EmployeeJoinedTeam} when a membership appears, {@code EmployeeLeftTeam} when it goes. A membership
 * overwritten by one of a later team or employee of the same ids (its team was deleted and created again before the
 * cascade reached it) is one that left and one that joined; a role change is neither.
 */
public final class MembershipDerivation extends EntityDerivation<Membership> {
    public static final EventType EMPLOYEE_JOINED_TEAM = EventType.of("EmployeeJoinedTeam", MembershipDetail.class);
    public static final EventType EMPLOYEE_LEFT_TEAM = EventType.of("EmployeeLeftTeam", MembershipDetail.class);

    /** The detail of {@code EmployeeJoinedTeam} and {@code EmployeeLeftTeam}; {@code role} may be null. */
    public record MembershipDetail(String eventId, String orgId, String teamId, String employeeId, String role,
                                   Instant addedAt) {
    }

    public MembershipDerivation() {
        super(Orgs.MEMBERSHIP, Membership::fromItem);
    }

    /** Its figures are views' ({@link OrgFigures}): its team's members and its organisation's memberships. */
    @Override
    protected Contribution contribution(Membership membership) {
        return Contribution.NONE;
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
        return replaced(before, after, Membership::sameAs, link -> event(eventId, EMPLOYEE_LEFT_TEAM, link),
                link -> event(eventId, EMPLOYEE_JOINED_TEAM, link));
    }

    /** The subject is team and employee: one record may announce a departure and an arrival of the same pair. */
    private static DomainEvent event(String eventId, EventType detailType, Membership membership) {
        return DomainEvent.about(eventId, detailType, membership.teamId() + "/" + membership.employeeId(),
                id -> new MembershipDetail(id, membership.orgId(), membership.teamId(), membership.employeeId(),
                        membership.role(), membership.addedAt()));
    }
}
