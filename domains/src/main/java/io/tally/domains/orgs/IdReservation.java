package io.tally.domains.orgs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.type;

import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a team or employee id across all organisations, written in the same transaction as the team or employee
 * ({@code attribute_not_exists}) and deleted with it; it also says which organisation holds the id, which is how
 * {@code GET /stats/teams/{teamId}} finds the team's organisation with one consistent read.
 */
public record IdReservation(Kind kind, String id, String orgId) {
    /** What the reserved id names. */
    public enum Kind {
        TEAM(Orgs.TEAM_REF), EMPLOYEE(Orgs.EMPLOYEE_REF);

        private final EntityType type;

        Kind(EntityType type) {
            this.type = type;
        }

        public EntityType type() {
            return type;
        }

        public Key key(String id) {
            return this == TEAM ? OrgKeys.teamRef(id) : OrgKeys.employeeRef(id);
        }
    }

    public static final String ID = "id";
    public static final String ORG_ID = "orgId";

    public Key key() {
        return kind.key(id);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(kind.type()));
        item.put(ID, s(id));
        item.put(ORG_ID, s(orgId));
        return item;
    }

    public static IdReservation fromItem(Kind kind, Map<String, AttributeValue> item) {
        Items.expectType(item, kind.type());
        return new IdReservation(kind, Items.string(item, ID), Items.string(item, ORG_ID));
    }
}
