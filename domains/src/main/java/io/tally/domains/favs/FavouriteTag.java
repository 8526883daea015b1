package io.tally.domains.favs;

import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.Key;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A tag on a favourite, in the favourite's link partition (the seed's favourite-data-tag item). It holds a copy of the
 * favourite's fields (a favourite never changes), so that the two link indexes (by tag, by tag and type, both by clip
 * time) list favourites without another read, and the incarnations of the favourite and the tag it joins: when either
 * is deleted, the stream processor removes exactly its links, never those of a later favourite or tag of the same id.
 * The item is declared once: its own attributes by {@link #SCHEMA}, the favourite's by {@link Favourite#FIELDS}.
 */
public record FavouriteTag(Favourite favourite, String tagId, Instant linkedAt, String tagIncarnation) {
    /** Attribute names the requests' conditions and the cascades use. */
    public static final String FAVOURITE_INCARNATION = "favouriteIncarnation";
    public static final String TAG_INCARNATION = "tagIncarnation";

    /** The link's own attributes and index keys; the favourite's fields are stored beside them. */
    public static final ItemSchema<FavouriteTag> SCHEMA =
            ItemSchema.of(FavouriteTag.class, Favs.FAVOURITE_TAG, FavouriteTag::key)
                    .notStored("favourite")
                    .computed(FAVOURITE_INCARNATION, link -> link.favourite.incarnation())
                    .computed(FavKeys.LINK_TAG_KEY, link -> FavKeys.byTag(link.userId(), link.tagId))
                    .computed(FavKeys.LINK_TAG_TYPE_KEY,
                            link -> FavKeys.byTagAndType(link.userId(), link.tagId, link.favourite.type()))
                    .computed(FavKeys.CLIPPED_KEY, link -> link.favourite.clipped())
                    .readBy(FavouriteTag::read)
                    .build();

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
        Map<String, AttributeValue> item = new HashMap<>(SCHEMA.toItem(this));
        Favourite.FIELDS.putFields(favourite, item);
        return item;
    }

    public static FavouriteTag fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }

    /** The link and the copy of its favourite it carries (the schema checked its entity type). */
    private static FavouriteTag read(Map<String, AttributeValue> item) {
        Favourite favourite = Favourite.fields(item, Items.string(item, FAVOURITE_INCARNATION));
        return SCHEMA.fields(item, Map.of("favourite", favourite));
    }
}
