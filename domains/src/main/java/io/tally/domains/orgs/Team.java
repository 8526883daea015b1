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
 * A team of an organisation. Its id is unique across organisations and freed when the team is deleted, so the
 * same id may name a later team: {@code incarnation} (a generated id, new with every create) tells the teams apart,
 * and every membership records the incarnation it was added to (see {@link Membership}).
 */
public record Team(String teamId, String orgId, String name, String details, Instant createdAt, String incarnation) {
    /** Attribute names of the item. */
    public static final String TEAM_ID = "teamId";
    public static final String ORG_ID = "orgId";
    public static final String NAME = "name";
    public static final String DETAILS = "details";
    public static final String CREATED_AT = "createdAt";
    public static final String INCARNATION = "incarnation";

    public Key key() {
        return OrgKeys.team(orgId, teamId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Orgs.TEAM));
        item.put(TableSchema.LOOKUP_KEY, s(OrgKeys.teamLookup(teamId)));
        item.put(TEAM_ID, s(teamId));
        item.put(ORG_ID, s(orgId));
        item.put(NAME, s(name));
        if (details != null) {
            item.put(DETAILS, s(details));
        }
        item.put(CREATED_AT, ts(createdAt));
        item.put(INCARNATION, s(incarnation));
        return item;
    }

    public static Team fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Orgs.TEAM);
        return new Team(
                Items.string(item, TEAM_ID),
                Items.string(item, ORG_ID),
                Items.string(item, NAME),
                Items.optionalString(item, DETAILS),
                Items.instant(item, CREATED_AT),
                Items.string(item, INCARNATION));
    }
}
