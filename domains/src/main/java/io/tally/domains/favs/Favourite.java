package io.tally.domains.favs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A favourite: data a user collected (seed 004's favourite data), never modified through the API; un-collecting
 * deletes it and frees its id. It carries the keys of the FavouritesByType index. {@code incarnation} (new with every
 * create) tells a favourite from a later one of the same id, as for tags.
 */
public record Favourite(String userId, String favouriteId, FavouriteType type, String title, String contentUrl,
                        String thumbnailUrl, String creatorId, Instant clippedAt, String incarnation) {
    /** Attribute names of the item. */
    public static final String USER_ID = "userId";
    public static final String FAVOURITE_ID = "favouriteId";
    public static final String TYPE = "type";
    public static final String TITLE = "title";
    public static final String CONTENT_URL = "contentUrl";
    public static final String THUMBNAIL_URL = "thumbnailUrl";
    public static final String CREATOR_ID = "creatorId";
    public static final String CLIPPED_AT = "clippedAt";
    public static final String INCARNATION = "incarnation";

    public Key key() {
        return FavKeys.favourite(userId, favouriteId);
    }

    public String clipped() {
        return FavKeys.clipped(clippedAt, favouriteId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, Items.type(Favs.FAVOURITE));
        putFields(item);
        item.put(INCARNATION, s(incarnation));
        item.put(TableSchema.FAV_TYPE_KEY, s(FavKeys.byType(userId, type)));
        item.put(TableSchema.CLIPPED_KEY, s(clipped()));
        return item;
    }

    /** The fields the contract shows, as item attributes (a link and a search entry carry them too). */
    public void putFields(Map<String, AttributeValue> item) {
        item.put(USER_ID, s(userId));
        item.put(FAVOURITE_ID, s(favouriteId));
        item.put(TYPE, s(type.value()));
        item.put(TITLE, s(title));
        if (contentUrl != null) {
            item.put(CONTENT_URL, s(contentUrl));
        }
        if (thumbnailUrl != null) {
            item.put(THUMBNAIL_URL, s(thumbnailUrl));
        }
        if (creatorId != null) {
            item.put(CREATOR_ID, s(creatorId));
        }
        item.put(CLIPPED_AT, ts(clippedAt));
    }

    public static Favourite fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Favs.FAVOURITE);
        return fields(item, Items.string(item, INCARNATION));
    }

    /**
     * The contract's fields of any item that carries them (a favourite, a link, a search entry); the incarnation is
     * what the caller says.
     */
    public static Favourite fields(Map<String, AttributeValue> item, String incarnation) {
        String type = Items.string(item, TYPE);
        return new Favourite(
                Items.string(item, USER_ID),
                Items.string(item, FAVOURITE_ID),
                FavouriteType.parse(type).orElseThrow(() -> new MalformedItemException("unknown favourite type " + type)),
                Items.string(item, TITLE),
                Items.optionalString(item, CONTENT_URL),
                Items.optionalString(item, THUMBNAIL_URL),
                Items.optionalString(item, CREATOR_ID),
                Items.instant(item, CLIPPED_AT),
                incarnation);
    }
}
