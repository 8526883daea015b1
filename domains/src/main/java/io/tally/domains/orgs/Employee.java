package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An employee of an organisation. As with {@link Team}, the id is unique across organisations and freed on delete;
 * {@code incarnation} tells a later employee of the same id from this one. The record is both the item
 * ({@link #SCHEMA}, with the reverse lookup's key) and the contract's JSON, which leaves the incarnation out.
 */
@JsonPropertyOrder({"employeeId", "orgId", "name", "email", "details", "createdAt"})
public record Employee(String employeeId, String orgId, String name, String email, String details, Instant createdAt,
                       @JsonIgnore String incarnation) implements OrgPart {
    public static final ItemSchema<Employee> SCHEMA = ItemSchema.of(Employee.class, Orgs.EMPLOYEE, Employee::key)
            .optional("details")
            .computed(OrgKeys.LOOKUP_KEY, employee -> OrgKeys.employeeLookup(employee.employeeId))
            .build();

    @Override
    public String id() {
        return employeeId;
    }

    public Key key() {
        return OrgKeys.employee(orgId, employeeId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Employee fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
