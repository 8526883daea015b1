package io.tally.domains.favs;

import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * User u1's favourites, tags and links written straight to a table, as the writer would write them: the fixture of the
 * favourites' stream tests. Tags and links are stamped {@code at}.
 */
record FavTable(DynamoDbClient dynamo, String table, Instant at) {
    Favourite favourite(String id, String title, Instant clipped, String incarnation) {
        Favourite favourite = new Favourite("u1", id, FavouriteType.IMAGE, title, null, null, null, clipped, incarnation);
        put(favourite.toItem());
        return favourite;
    }

    /** A tag named {@code "<tagId> tag"}, with its name's reservation. */
    Tag tag(String tagId, String incarnation) {
        Tag tag = new Tag("u1", tagId, tagId + " tag", at, at, incarnation);
        put(new TagName("u1", tag.name(), tagId).toItem());
        put(tag.toItem());
        return tag;
    }

    void link(Favourite favourite, Tag tag) {
        put(new FavouriteTag(favourite, tag.tagId(), at, tag.incarnation()).toItem());
    }

    void put(Map<String, AttributeValue> item) {
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    void delete(Key key) {
        dynamo.deleteItem(r -> r.tableName(table).key(key.toAttributeMap()));
    }
}
