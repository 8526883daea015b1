package io.tally.domains.orgs;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.Key;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a team or employee id across all organisations, written in the same transaction as the team or employee
 * ({@code attribute_not_exists}) and deleted with it; it also says which organisation holds the id, which is how
 * {@code GET /stats/teams/{teamId}} finds the team's organisation with one consistent read. Its kind is not an
 * attribute: each kind is an entity type of its own, stored by its kind's schema.
 */
public record IdReservation(Kind kind, String id, String orgId) {
    /** What the reserved id names. */
    public enum Kind {
        TEAM(Orgs.TEAM_REF, "team"), EMPLOYEE(Orgs.EMPLOYEE_REF, "employee");

        private final EntityType type;
        private final String noun;
        private final ItemSchema<IdReservation> schema;

        Kind(EntityType type, String noun) {
            this.type = type;
            this.noun = noun;
            this.schema = ItemSchema.of(IdReservation.class, type, IdReservation::key).notStored("kind").build();
        }

        public EntityType type() {
            return type;
        }

        /** How messages name it, and the stem of its path parameter ({@code teamId}) and list scope ({@code teams}). */
        public String noun() {
            return noun;
        }

        public Key key(String id) {
            return this == TEAM ? OrgKeys.teamRef(id) : OrgKeys.employeeRef(id);
        }
    }

    /** The attribute a delete's condition checks: the id is still this organisation's. */
    public static final String ORG_ID = "orgId";

    public Key key() {
        return kind.key(id);
    }

    public Map<String, AttributeValue> toItem() {
        return kind.schema.toItem(this);
    }

    public static IdReservation fromItem(Kind kind, Map<String, AttributeValue> item) {
        Items.expectType(item, kind.type());
        return kind.schema.fields(item, Map.of("kind", kind));
    }
}
