package io.tally.domains.favs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A favourite: data a user collected (seed 004's favourite data), never modified through the API; un-collecting
 * deletes it and frees its id. It carries the keys of the FavouritesByType index. {@code incarnation} (new with every
 * create) tells a favourite from a later one of the same id, as for tags. The record is both the item ({@link #SCHEMA})
 * and the contract's JSON, which leaves the incarnation out.
 */
@JsonPropertyOrder({"favouriteId", "userId", "type", "title", "contentUrl", "thumbnailUrl", "creatorId", "clippedAt"})
public record Favourite(String userId, String favouriteId, FavouriteType type, String title, String contentUrl,
                        String thumbnailUrl, String creatorId, Instant clippedAt, @JsonIgnore String incarnation) {
    /** Attribute names of the item, which the search projection's document and the requests name. */
    public static final String USER_ID = "userId";
    public static final String FAVOURITE_ID = "favouriteId";
    public static final String TYPE = "type";
    public static final String TITLE = "title";
    public static final String CONTENT_URL = "contentUrl";
    public static final String THUMBNAIL_URL = "thumbnailUrl";
    public static final String CREATOR_ID = "creatorId";
    public static final String CLIPPED_AT = "clippedAt";
    public static final String INCARNATION = "incarnation";

    /** The favourite's item: its fields, its incarnation and the keys of FavouritesByType. */
    public static final ItemSchema<Favourite> SCHEMA = fields()
            .computed(FavKeys.FAV_TYPE_KEY, favourite -> FavKeys.byType(favourite.userId, favourite.type))
            .computed(FavKeys.CLIPPED_KEY, Favourite::clipped)
            .build();

    /** The fields the contract shows, as a link and a search entry carry them too: no incarnation, no index keys. */
    static final ItemSchema<Favourite> FIELDS = fields().notStored(INCARNATION).build();

    private static ItemSchema.Builder<Favourite> fields() {
        return ItemSchema.of(Favourite.class, Favs.FAVOURITE, Favourite::key)
                .optional(CONTENT_URL, THUMBNAIL_URL, CREATOR_ID);
    }

    public Key key() {
        return FavKeys.favourite(userId, favouriteId);
    }

    public String clipped() {
        return FavKeys.clipped(clippedAt, favouriteId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Favourite fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }

    /**
     * The contract's fields of any item that carries them (a favourite, a link, a search entry); the incarnation is
     * what the caller says.
     */
    public static Favourite fields(Map<String, AttributeValue> item, String incarnation) {
        return FIELDS.fields(item, Map.of(INCARNATION, incarnation));
    }

    /** A favourite as a list shows it, from any item that carries its fields. */
    static Favourite listed(Map<String, AttributeValue> item) {
        return fields(item, "");
    }
}
