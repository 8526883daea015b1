package ${package};

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;

/**
 * A user's like of an item, and its JSON: the entity of this domain, kept under the item
 * ({@code LIKES#<itemId> / USER#<userId>}), so that an item's figures are written from one partition.
 */
public record Like(String userId, String itemId, Instant likedAt) {
    static final ItemSchema<Like> SCHEMA = ItemSchema.of(Like.class, Likes.LIKE, Like::key).build();

    static Key key(String userId, String itemId) {
        return new Key("LIKES#" + itemId, "USER#" + userId);
    }

    Key key() {
        return key(userId, itemId);
    }
}
