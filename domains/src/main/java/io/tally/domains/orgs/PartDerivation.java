package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The derivation of a part of an organisation, a team ({@link #teams}) or an employee ({@link #employees}). A part is
 * never modified: a change is a creation or a removal, which announces {@code <Part>Created} or {@code <Part>Deleted}
 * about the part's id, and a removal removes the part's memberships in turn (those of its incarnation, through
 * {@link TeamMemberships} or {@link EmployeeMemberships}); their own REMOVE records then count its members and the
 * organisation's memberships down.
 */
public final class PartDerivation<T extends Record & OrgPart> extends EntityDerivation<T> {
    public static final EventType TEAM_CREATED = EventType.of("TeamCreated", TeamDetail.class);
    public static final EventType TEAM_DELETED = EventType.of("TeamDeleted", TeamDetail.class);
    public static final EventType EMPLOYEE_CREATED = EventType.of("EmployeeCreated", EmployeeDetail.class);
    public static final EventType EMPLOYEE_DELETED = EventType.of("EmployeeDeleted", EmployeeDetail.class);

    /** The detail of {@code TeamCreated} and {@code TeamDeleted}. */
    public record TeamDetail(String eventId, String teamId, String orgId, String name, Instant createdAt) {
    }

    /**
     * The detail of {@code EmployeeCreated} and {@code EmployeeDeleted}. Names and ids only: the e-mail address stays
     * out of the events, as a post's body does.
     */
    public record EmployeeDetail(String eventId, String employeeId, String orgId, String name, Instant createdAt) {
    }

    private final EventType created;
    private final EventType deleted;
    private final Function<T, Cascade> memberships;
    private final BiFunction<String, T, Record> detail;

    private PartDerivation(ItemSchema<T> schema, EventType created, EventType deleted,
                           Function<T, Cascade> memberships, BiFunction<String, T, Record> detail) {
        super(schema.entityType(), schema::fromItem);
        this.created = created;
        this.deleted = deleted;
        this.memberships = memberships;
        this.detail = detail;
    }

    /** A team's events and cascade (it counts in its organisation's {@code teams} through {@link OrgFigures#ORG}). */
    static PartDerivation<Team> teams() {
        return new PartDerivation<>(Team.SCHEMA, TEAM_CREATED, TEAM_DELETED,
                team -> new TeamMemberships(team.orgId(), team.teamId(), team.incarnation()),
                (id, team) -> new TeamDetail(id, team.teamId(), team.orgId(), team.name(), team.createdAt()));
    }

    /**
     * An employee's events and cascade (it counts in its organisation's head count and the global {@code employees}
     * through {@link OrgFigures}).
     */
    static PartDerivation<Employee> employees() {
        return new PartDerivation<>(Employee.SCHEMA, EMPLOYEE_CREATED, EMPLOYEE_DELETED,
                employee -> new EmployeeMemberships(employee.orgId(), employee.employeeId(), employee.incarnation()),
                (id, employee) -> new EmployeeDetail(id, employee.employeeId(), employee.orgId(), employee.name(),
                        employee.createdAt()));
    }

    /** Its figures are views' ({@link OrgFigures}). */
    @Override
    protected Contribution contribution(T part) {
        return Contribution.NONE;
    }

    @Override
    protected List<Cascade> cascades(T before, T after) {
        return before != null && after == null ? List.of(memberships.apply(before)) : List.of();
    }

    @Override
    protected List<DomainEvent> events(String eventId, T before, T after) {
        return createdOrRemoved(before, after, part -> event(eventId, created, part),
                part -> event(eventId, deleted, part));
    }

    private DomainEvent event(String eventId, EventType detailType, T part) {
        return DomainEvent.about(eventId, detailType, part.id(), id -> detail.apply(id, part));
    }
}
