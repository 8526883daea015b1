package io.tally.domains.favs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a tag name for one user, ignoring case: put with {@code attribute_not_exists} in the same transaction as the
 * tag (so two concurrent creates of one name cannot both win), moved in one transaction by a rename, deleted with the
 * tag. It says which tag holds the name.
 */
public record TagName(String userId, String name, String tagId) {
    public static final String TAG_ID = "tagId";

    public Key key() {
        return FavKeys.tagName(userId, name);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Favs.TAG_NAME));
        item.put(TAG_ID, s(tagId));
        return item;
    }

    /** The tag that holds a reservation item. */
    public static String tagIdOf(Map<String, AttributeValue> item) {
        Items.expectType(item, Favs.TAG_NAME);
        return Items.string(item, TAG_ID);
    }
}
