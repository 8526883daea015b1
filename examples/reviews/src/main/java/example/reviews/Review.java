package example.reviews;

import io.tally.core.ItemSchema;
import io.tally.core.http.Field;
import java.time.Instant;

/**
 * A user's review of a catalogue item: the item (in the user's partition, keyed as its schema's pattern says) and the
 * contract's JSON, both from this one record.
 *
 * @param stars 1..5
 * @param text  at most {@link #TEXT_MAX} characters, or null
 */
public record Review(String userId, String itemId, long stars, String text, Instant updatedAt) {
    static final int TEXT_MAX = 2_000;
    /** The body of its {@code PUT}: the stars, required, and an optional text. */
    static final Field<Long> STARS = Field.whole("stars", 1, 5);
    static final Field<String> TEXT = Field.multiline("text", 0, TEXT_MAX);

    static final ItemSchema<Review> SCHEMA = ItemSchema.keyed(Review.class, Reviews.REVIEW,
            "USER#<userId> / REVIEW#<itemId>").optional("text").build();
}
