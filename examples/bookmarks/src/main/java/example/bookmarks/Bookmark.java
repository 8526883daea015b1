package example.bookmarks;

import io.tally.core.ItemSchema;
import io.tally.core.http.Field;
import java.time.Instant;

/**
 * A user's bookmark of a catalogue item, and its JSON. Kept under the item, in one of ten partitions by user
 * ({@code BOOKMARKS#<itemId>#<k> / USER#<userId>}): the item's figures are then written from ten partitions only.
 */
public record Bookmark(String userId, String itemId, String note, Instant createdAt, Instant updatedAt) {
    /** The body of its {@code PUT}, which may be left out: a note. */
    static final Field<String> NOTE = Field.line("note", 500);
    static final ItemSchema<Bookmark> SCHEMA = ItemSchema.keyed(Bookmark.class, Bookmarks.BOOKMARK,
            "BOOKMARKS#<itemId>#<k> / USER#<userId>").spread("k", 10, "userId").optional("note").build();
}
