package io.tally.domains.orgs;

import io.tally.core.events.EventType;
import java.time.Instant;

/**
 * The organisations' events, which the changes of their entities announce ({@link Orgs} declares when): an
 * organisation's creation (a rename announces nothing, and organisations are never deleted by the API); a team's and an
 * employee's creation and removal (a part is never modified); a membership's arrival and departure, where one
 * overwritten by a membership of a later team or employee of the same ids (its team was deleted and created again
 * before the cascade reached it) is one that left and one that joined, and a role change is neither. Names and ids
 * only: an employee's e-mail address stays out of the events, as a post's body does.
 */
public final class OrgEvents {
    public static final EventType ORG_CREATED = EventType.of("OrgCreated", OrgDetail.class);
    public static final EventType TEAM_CREATED = EventType.of("TeamCreated", TeamDetail.class);
    public static final EventType TEAM_DELETED = EventType.of("TeamDeleted", TeamDetail.class);
    public static final EventType EMPLOYEE_CREATED = EventType.of("EmployeeCreated", EmployeeDetail.class);
    public static final EventType EMPLOYEE_DELETED = EventType.of("EmployeeDeleted", EmployeeDetail.class);
    public static final EventType EMPLOYEE_JOINED_TEAM = EventType.of("EmployeeJoinedTeam", MembershipDetail.class);
    public static final EventType EMPLOYEE_LEFT_TEAM = EventType.of("EmployeeLeftTeam", MembershipDetail.class);

    /** The detail of {@code OrgCreated}; {@code type} is null for an organisation without one. */
    public record OrgDetail(String eventId, String orgId, String name, String type) {
        static OrgDetail of(String eventId, Organisation org) {
            return new OrgDetail(eventId, org.orgId(), org.name(), org.type());
        }
    }

    /** The detail of {@code TeamCreated} and {@code TeamDeleted}. */
    public record TeamDetail(String eventId, String teamId, String orgId, String name, Instant createdAt) {
        static TeamDetail of(String eventId, Team team) {
            return new TeamDetail(eventId, team.teamId(), team.orgId(), team.name(), team.createdAt());
        }
    }

    /** The detail of {@code EmployeeCreated} and {@code EmployeeDeleted}. */
    public record EmployeeDetail(String eventId, String employeeId, String orgId, String name, Instant createdAt) {
        static EmployeeDetail of(String eventId, Employee employee) {
            return new EmployeeDetail(eventId, employee.employeeId(), employee.orgId(), employee.name(),
                    employee.createdAt());
        }
    }

    /** The detail of {@code EmployeeJoinedTeam} and {@code EmployeeLeftTeam}; {@code role} may be null. */
    public record MembershipDetail(String eventId, String orgId, String teamId, String employeeId, String role,
                                   Instant addedAt) {
        static MembershipDetail of(String eventId, Membership membership) {
            return new MembershipDetail(eventId, membership.orgId(), membership.teamId(), membership.employeeId(),
                    membership.role(), membership.addedAt());
        }
    }

    private OrgEvents() {
    }

    /** A membership's events are about team and employee: one record may announce a departure and an arrival of both. */
    static String pair(Membership membership) {
        return membership.teamId() + "/" + membership.employeeId();
    }
}
