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
 * An employee's membership of a team of the same organisation, in the team's partition. It records the
 * incarnations of the team and the employee it was added to: when either is deleted, the stream processor removes
 * exactly the memberships of that incarnation, never those of a later team or employee that reuses the id.
 */
public record Membership(String orgId, String teamId, String employeeId, String role, Instant addedAt,
                         String teamIncarnation, String employeeIncarnation) {
    /** Attribute names of the item. */
    public static final String ORG_ID = "orgId";
    public static final String TEAM_ID = "teamId";
    public static final String EMPLOYEE_ID = "employeeId";
    public static final String ROLE = "role";
    public static final String ADDED_AT = "addedAt";
    public static final String TEAM_INCARNATION = "teamIncarnation";
    public static final String EMPLOYEE_INCARNATION = "employeeIncarnation";

    public Key key() {
        return OrgKeys.membership(orgId, teamId, employeeId);
    }

    /** Whether this membership belongs to this team and this employee (not to earlier ones of the same ids). */
    public boolean joins(Team team, Employee employee) {
        return teamIncarnation.equals(team.incarnation()) && employeeIncarnation.equals(employee.incarnation());
    }

    /** The same membership, of the same team and employee incarnations (a role change does not make a new one). */
    public boolean sameAs(Membership other) {
        return other != null && key().equals(other.key()) && teamIncarnation.equals(other.teamIncarnation)
                && employeeIncarnation.equals(other.employeeIncarnation);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Orgs.MEMBERSHIP));
        item.put(TableSchema.LOOKUP_KEY, s(OrgKeys.membershipSk(orgId, employeeId)));
        item.put(ORG_ID, s(orgId));
        item.put(TEAM_ID, s(teamId));
        item.put(EMPLOYEE_ID, s(employeeId));
        if (role != null) {
            item.put(ROLE, s(role));
        }
        item.put(ADDED_AT, ts(addedAt));
        item.put(TEAM_INCARNATION, s(teamIncarnation));
        item.put(EMPLOYEE_INCARNATION, s(employeeIncarnation));
        return item;
    }

    public static Membership fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Orgs.MEMBERSHIP);
        return new Membership(
                Items.string(item, ORG_ID),
                Items.string(item, TEAM_ID),
                Items.string(item, EMPLOYEE_ID),
                Items.optionalString(item, ROLE),
                Items.instant(item, ADDED_AT),
                Items.string(item, TEAM_INCARNATION),
                Items.string(item, EMPLOYEE_INCARNATION));
    }
}
