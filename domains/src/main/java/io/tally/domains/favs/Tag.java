package io.tally.domains.favs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user's tag. It carries the range keys of the three tag LSIs (by name ignoring case, by creation, by last access),
 * which only tags have. Its id may come back after a delete: {@code incarnation} (new with every create) tells the tags
 * apart, and every link records the incarnation it was added to. The record is both the item ({@link #SCHEMA}) and the
 * contract's JSON, which leaves the owner and the incarnation out.
 */
@JsonPropertyOrder({"tagId", "name", "createdAt", "lastAccessAt"})
public record Tag(@JsonIgnore String userId, String tagId, String name, Instant createdAt, Instant lastAccessAt,
                  @JsonIgnore String incarnation) {
    /** Attribute names the requests' updates and conditions use. */
    public static final String NAME = "name";
    public static final String LAST_ACCESS_AT = "lastAccessAt";
    public static final String INCARNATION = "incarnation";

    public static final ItemSchema<Tag> SCHEMA = ItemSchema.of(Tag.class, Favs.TAG, Tag::key)
            .computed(FavKeys.TAG_NAME_KEY, tag -> nameKey(tag.name))
            .computed(FavKeys.TAG_CREATED_KEY, tag -> timeKey(tag.createdAt, tag.tagId))
            .computed(FavKeys.TAG_ACCESSED_KEY, tag -> timeKey(tag.lastAccessAt, tag.tagId))
            .build();

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
        return SCHEMA.toItem(this);
    }

    public static Tag fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
