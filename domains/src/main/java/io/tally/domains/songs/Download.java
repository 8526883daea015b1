package io.tally.domains.songs;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One download of a song: immutable but for its refund. A refund (the API's DELETE) marks the item
 * ({@code refundedAt}) rather than removing it: the download then stops counting, and its id stays taken.
 *
 * @param userId     who downloaded it, or null
 * @param at         when, as the client gave it or the server's clock
 * @param refundedAt when it was refunded, or null while it counts
 */
public record Download(String downloadId, String songId, String userId, Instant at, Instant refundedAt) {
    /** Attribute names of the item. */
    public static final String DOWNLOAD_ID = "downloadId";
    public static final String SONG_ID = "songId";
    public static final String USER_ID = "userId";
    public static final String AT = "at";
    public static final String REFUNDED_AT = "refundedAt";

    public Key key() {
        return SongKeys.download(songId, downloadId);
    }

    /** Whether it counts: it was not refunded. */
    public boolean counts() {
        return refundedAt == null;
    }

    public Download refunded(Instant when) {
        return new Download(downloadId, songId, userId, at, when);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, Items.type(Songs.DOWNLOAD));
        item.put(DOWNLOAD_ID, s(downloadId));
        item.put(SONG_ID, s(songId));
        if (userId != null) {
            item.put(USER_ID, s(userId));
        }
        item.put(AT, ts(at));
        if (refundedAt != null) {
            item.put(REFUNDED_AT, ts(refundedAt));
        }
        return item;
    }

    public static Download fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Songs.DOWNLOAD);
        String refundedAt = Items.optionalString(item, REFUNDED_AT);
        return new Download(
                Items.string(item, DOWNLOAD_ID),
                Items.string(item, SONG_ID),
                Items.optionalString(item, USER_ID),
                Items.instant(item, AT),
                refundedAt == null ? null : Items.instant(item, REFUNDED_AT));
    }
}
