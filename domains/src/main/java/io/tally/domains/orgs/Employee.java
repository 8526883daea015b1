package io.tally.domains.orgs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An employee of an organisation. As with {@link Team}, the id is unique across organisations and freed on delete;
 * {@code incarnation} tells a later employee of the same id from this one.
 */
public record Employee(String employeeId, String orgId, String name, String email, String details, Instant createdAt,
                       String incarnation) {
    /** Attribute names of the item. */
    public static final String EMPLOYEE_ID = "employeeId";
    public static final String ORG_ID = "orgId";
    public static final String NAME = "name";
    public static final String EMAIL = "email";
    public static final String DETAILS = "details";
    public static final String CREATED_AT = "createdAt";
    public static final String INCARNATION = "incarnation";

    public Key key() {
        return OrgKeys.employee(orgId, employeeId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Orgs.EMPLOYEE));
        item.put(TableSchema.LOOKUP_KEY, s(OrgKeys.employeeLookup(employeeId)));
        item.put(EMPLOYEE_ID, s(employeeId));
        item.put(ORG_ID, s(orgId));
        item.put(NAME, s(name));
        item.put(EMAIL, s(email));
        if (details != null) {
            item.put(DETAILS, s(details));
        }
        item.put(CREATED_AT, ts(createdAt));
        item.put(INCARNATION, s(incarnation));
        return item;
    }

    public static Employee fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Orgs.EMPLOYEE);
        return new Employee(
                Items.string(item, EMPLOYEE_ID),
                Items.string(item, ORG_ID),
                Items.string(item, NAME),
                Items.string(item, EMAIL),
                Items.optionalString(item, DETAILS),
                Items.instant(item, CREATED_AT),
                Items.string(item, INCARNATION));
    }
}
