package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An existing employee counts in its organisation's head count ({@code employees}) and in the global
 * {@code employees}. Its removal removes its memberships in turn ({@link EmployeeMemberships}). Announces
 * {@code EmployeeCreated} and {@code EmployeeDeleted}.
 */
public final class EmployeeDerivation extends EntityDerivation<Employee> {
    public static final String EMPLOYEE_CREATED = "EmployeeCreated";
    public static final String EMPLOYEE_DELETED = "EmployeeDeleted";

    /** The detail of {@code EmployeeCreated} and {@code EmployeeDeleted}. */
    @JsonPropertyOrder({"eventId", "employeeId", "orgId", "name", "createdAt"})
    public record EmployeeDetail(String eventId, String employeeId, String orgId, String name, Instant createdAt) {
    }

    public EmployeeDerivation() {
        super(Orgs.EMPLOYEE);
    }

    @Override
    protected Employee read(Map<String, AttributeValue> image) {
        return Employee.fromItem(image);
    }

    @Override
    protected Contribution contribution(Employee employee) {
        return Contribution.builder()
                .count(Orgs.ORG_STATS, employee.orgId(), Orgs.ORG_EMPLOYEES, 1)
                .count(SharedStats.global(Orgs.GLOBAL_EMPLOYEES), 1)
                .build();
    }

    /** Employees are never modified: a change is a creation or a removal. */
    @Override
    protected List<Cascade> cascades(Employee before, Employee after) {
        if (before != null && after == null) {
            return List.of(new EmployeeMemberships(before.orgId(), before.employeeId(), before.incarnation()));
        }
        return List.of();
    }

    @Override
    protected List<DomainEvent> events(String eventId, Employee before, Employee after) {
        if (before == null && after != null) {
            return List.of(event(eventId, EMPLOYEE_CREATED, after));
        }
        if (before != null && after == null) {
            return List.of(event(eventId, EMPLOYEE_DELETED, before));
        }
        return List.of();
    }

    /** Names and ids only: the e-mail address stays out of the events, as a post's body does. */
    private static DomainEvent event(String eventId, String detailType, Employee employee) {
        String id = DomainEvent.idFor(eventId, detailType, employee.employeeId());
        return DomainEvent.of(id, detailType, new EmployeeDetail(id, employee.employeeId(), employee.orgId(),
                employee.name(), employee.createdAt()));
    }
}
