package io.tally.domains.orgs;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An organisation (seed 002); {@code type} is optional (e.g. {@code Retail}). Organisations are never deleted. */
public record Organisation(String orgId, String name, String type, Instant createdAt, Instant updatedAt,
                           long version) {
    /** Attribute names of the item. */
    public static final String ORG_ID = "orgId";
    public static final String NAME = "name";
    public static final String TYPE = "type";
    public static final String CREATED_AT = "createdAt";
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";

    public Key key() {
        return OrgKeys.organisation(orgId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, Items.type(Orgs.ORGANISATION));
        item.put(ORG_ID, s(orgId));
        item.put(NAME, s(name));
        if (type != null) {
            item.put(TYPE, s(type));
        }
        item.put(CREATED_AT, ts(createdAt));
        item.put(UPDATED_AT, ts(updatedAt));
        item.put(VERSION, n(version));
        return item;
    }

    public static Organisation fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Orgs.ORGANISATION);
        return new Organisation(
                Items.string(item, ORG_ID),
                Items.string(item, NAME),
                Items.optionalString(item, TYPE),
                Items.instant(item, CREATED_AT),
                Items.instant(item, UPDATED_AT),
                Items.number(item, VERSION));
    }
}
