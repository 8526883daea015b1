package ${package};

import io.tally.core.ItemSchema;
import java.time.Instant;

/**
 * A user's like of an item, and its JSON: the entity of this domain, kept under the item (its key made from the
 * record's components by the schema's pattern), so that an item's figures are written from one partition.
 */
public record Like(String userId, String itemId, Instant likedAt) {
    static final ItemSchema<Like> SCHEMA = ItemSchema.keyed(Like.class, Likes.LIKE, "LIKES#<itemId> / USER#<userId>")
            .build();
}
