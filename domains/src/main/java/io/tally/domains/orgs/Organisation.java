package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An organisation (seed 002); {@code type} is optional (e.g. {@code Retail}). Organisations are never deleted. The
 * record is both the item ({@link #SCHEMA}) and the contract's JSON, in its field order.
 */
public record Organisation(String orgId, String name, String type, Instant createdAt, Instant updatedAt,
                           long version) {
    /** Attribute names the writer's update sets. */
    public static final String NAME = "name";
    public static final String TYPE = "type";

    public static final ItemSchema<Organisation> SCHEMA =
            ItemSchema.of(Organisation.class, Orgs.ORGANISATION, Organisation::key).optional(TYPE).build();

    public Key key() {
        return OrgKeys.organisation(orgId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Organisation fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
