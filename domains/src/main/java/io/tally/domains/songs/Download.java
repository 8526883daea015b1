package io.tally.domains.songs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One download of a song: immutable but for its refund. A refund (the API's DELETE) marks the item
 * ({@code refundedAt}) rather than removing it: the download then stops counting, and its id stays taken. The record
 * is both the item ({@link #SCHEMA}) and the contract's JSON, which leaves the refund out.
 *
 * @param userId     who downloaded it, or null
 * @param at         when, as the client gave it or the server's clock
 * @param refundedAt when it was refunded, or null while it counts
 */
@JsonPropertyOrder({"downloadId", "songId", "userId", "at"})
public record Download(String downloadId, String songId, String userId, Instant at, @JsonIgnore Instant refundedAt) {
    /** Attribute names: a refund sets {@code refundedAt}. */
    public static final String USER_ID = "userId";
    public static final String REFUNDED_AT = "refundedAt";

    public static final ItemSchema<Download> SCHEMA = ItemSchema.of(Download.class, Songs.DOWNLOAD, Download::key)
            .optional(USER_ID, REFUNDED_AT)
            .build();

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
        return SCHEMA.toItem(this);
    }

    public static Download fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
