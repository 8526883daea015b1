package io.tally.domains.favs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user's tag. It carries the range keys of the three tag LSIs (by name ignoring case, by creation, by last access),
 * which only tags have. Its id may come back after a delete: {@code incarnation} (new with every create) tells the tags
 * apart, and every link records the incarnation it was added to.
 */
public record Tag(String userId, String tagId, String name, Instant createdAt, Instant lastAccessAt,
                  String incarnation) {
    /** Attribute names of the item. */
    public static final String USER_ID = "userId";
    public static final String TAG_ID = "tagId";
    public static final String NAME = "name";
    public static final String CREATED_AT = "createdAt";
    public static final String LAST_ACCESS_AT = "lastAccessAt";
    public static final String INCARNATION = "incarnation";

    public Key key() {
        return FavKeys.tag(userId, tagId);
    }

    /** The TagsByName range key: the name ignoring case (names are unique so), e.g. {@code travel}. */
    public static String nameKey(String name) {
        return FavKeys.nameKey(name);
    }

    /** The TagsByCreation and TagsByAccess range keys: a time, then the id. */
    public static String timeKey(Instant at, String tagId) {
        return Timestamps.format(at) + "#" + tagId;
    }

    public Tag renamed(String newName) {
        return new Tag(userId, tagId, newName, createdAt, lastAccessAt, incarnation);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Favs.TAG));
        item.put(USER_ID, s(userId));
        item.put(TAG_ID, s(tagId));
        item.put(NAME, s(name));
        item.put(CREATED_AT, ts(createdAt));
        item.put(LAST_ACCESS_AT, ts(lastAccessAt));
        item.put(INCARNATION, s(incarnation));
        item.put(TableSchema.TAG_NAME_KEY, s(nameKey(name)));
        item.put(TableSchema.TAG_CREATED_KEY, s(timeKey(createdAt, tagId)));
        item.put(TableSchema.TAG_ACCESSED_KEY, s(timeKey(lastAccessAt, tagId)));
        return item;
    }

    public static Tag fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Favs.TAG);
        return new Tag(
                Items.string(item, USER_ID),
                Items.string(item, TAG_ID),
                Items.string(item, NAME),
                Items.instant(item, CREATED_AT),
                Items.instant(item, LAST_ACCESS_AT),
                Items.string(item, INCARNATION));
    }
}
