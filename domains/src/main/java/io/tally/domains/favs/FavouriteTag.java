package io.tally.domains.favs;

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
 * A tag on a favourite, in the favourite's link partition (the seed's favourite-data-tag item). It holds a copy of the
 * favourite's fields (a favourite never changes), so that the two link indexes (by tag, by tag and type, both by clip
 * time) list favourites without another read, and the incarnations of the favourite and the tag it joins: when either
 * is deleted, the stream processor removes exactly its links, never those of a later favourite or tag of the same id.
 */
public record FavouriteTag(Favourite favourite, String tagId, Instant linkedAt, String tagIncarnation) {
    public static final String TAG_ID = "tagId";
    public static final String LINKED_AT = "linkedAt";
    public static final String FAVOURITE_INCARNATION = "favouriteIncarnation";
    public static final String TAG_INCARNATION = "tagIncarnation";

    public String userId() {
        return favourite.userId();
    }

    public String favouriteId() {
        return favourite.favouriteId();
    }

    public Key key() {
        return FavKeys.link(favourite.userId(), favourite.favouriteId(), tagId);
    }

    /** Whether this link joins exactly these incarnations (not earlier ones of the same ids). */
    public boolean sameAs(FavouriteTag other) {
        return other != null && key().equals(other.key())
                && favourite.incarnation().equals(other.favourite.incarnation())
                && tagIncarnation.equals(other.tagIncarnation);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Favs.FAVOURITE_TAG));
        favourite.putFields(item);
        item.put(TAG_ID, s(tagId));
        item.put(LINKED_AT, ts(linkedAt));
        item.put(FAVOURITE_INCARNATION, s(favourite.incarnation()));
        item.put(TAG_INCARNATION, s(tagIncarnation));
        item.put(TableSchema.LINK_TAG_KEY, s(FavKeys.byTag(userId(), tagId)));
        item.put(TableSchema.LINK_TAG_TYPE_KEY, s(FavKeys.byTagAndType(userId(), tagId, favourite.type())));
        item.put(TableSchema.CLIPPED_KEY, s(favourite.clipped()));
        return item;
    }

    public static FavouriteTag fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Favs.FAVOURITE_TAG);
        return new FavouriteTag(
                Favourite.fields(item, Items.string(item, FAVOURITE_INCARNATION)),
                Items.string(item, TAG_ID),
                Items.instant(item, LINKED_AT),
                Items.string(item, TAG_INCARNATION));
    }
}
