package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.users.SharedStats;
import java.time.Instant;

/**
 * An existing employee counts in its organisation's head count ({@code employees}) and in the global
 * {@code employees}. Its removal removes its memberships in turn ({@link EmployeeMemberships}). Announces
 * {@code EmployeeCreated} and {@code EmployeeDeleted}.
 */
public final class EmployeeDerivation extends PartDerivation<Employee> {
    public static final String EMPLOYEE_CREATED = "EmployeeCreated";
    public static final String EMPLOYEE_DELETED = "EmployeeDeleted";

    /**
     * The detail of {@code EmployeeCreated} and {@code EmployeeDeleted}. Names and ids only: the e-mail address stays
     * out of the events, as a post's body does.
     */
    @JsonPropertyOrder({"eventId", "employeeId", "orgId", "name", "createdAt"})
    public record EmployeeDetail(String eventId, String employeeId, String orgId, String name, Instant createdAt) {
    }

    public EmployeeDerivation() {
        super(Employee.SCHEMA, EMPLOYEE_CREATED, EMPLOYEE_DELETED);
    }

    @Override
    protected Contribution contribution(Employee employee) {
        return Contribution.builder()
                .count(Orgs.ORG_STATS, employee.orgId(), Orgs.ORG_EMPLOYEES, 1)
                .count(SharedStats.global(Orgs.GLOBAL_EMPLOYEES), 1)
                .build();
    }

    @Override
    protected Cascade memberships(Employee employee) {
        return new EmployeeMemberships(employee.orgId(), employee.employeeId(), employee.incarnation());
    }

    @Override
    protected Record detail(String id, Employee employee) {
        return new EmployeeDetail(id, employee.employeeId(), employee.orgId(), employee.name(),
                employee.createdAt());
    }
}
