package example.reviews;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Field;
import io.tally.core.users.Users;
import java.time.Instant;

/**
 * A user's review of a catalogue item: the item ({@code USER#<userId> / REVIEW#<itemId>}, in the user's partition) and
 * the contract's JSON, both from this one record.
 *
 * @param stars 1..5
 * @param text  at most {@link #TEXT_MAX} characters, or null
 */
public record Review(String userId, String itemId, long stars, String text, Instant updatedAt) {
    static final String SK_PREFIX = "REVIEW#";
    static final int TEXT_MAX = 2_000;
    /** The body of its {@code PUT}: the stars, required, and an optional text. */
    static final Field<Long> STARS = Field.whole("stars", 1, 5);
    static final Field<String> TEXT = Field.multiline("text", 0, TEXT_MAX);

    static final ItemSchema<Review> SCHEMA = ItemSchema.of(Review.class, Reviews.REVIEW, Review::key)
            .optional("text")
            .build();

    static Key key(String userId, String itemId) {
        return new Key(Users.pk(userId), SK_PREFIX + itemId);
    }

    Key key() {
        return key(userId, itemId);
    }
}
