package io.tally.domains.favs;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a tag name for one user, ignoring case: put with {@code attribute_not_exists} in the same transaction as the
 * tag (so two concurrent creates of one name cannot both win), moved in one transaction by a rename, deleted with the
 * tag. It says which tag holds the name; the user and the name are in its key only.
 */
public record TagName(String userId, String name, String tagId) {
    /** The attribute a release's condition checks: the name is still this tag's. */
    public static final String TAG_ID = "tagId";

    public static final ItemSchema<TagName> SCHEMA =
            ItemSchema.of(TagName.class, Favs.TAG_NAME, TagName::key).notStored("userId", "name").build();

    public Key key() {
        return FavKeys.tagName(userId, name);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    /** The tag that holds a reservation item. */
    public static String tagIdOf(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item).tagId();
    }
}
