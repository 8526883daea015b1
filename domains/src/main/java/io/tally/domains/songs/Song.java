package io.tally.domains.songs;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A song; {@code artist} is optional. A PUT replaces it; songs are never deleted. The record is both the item
 * ({@link #SCHEMA}) and the contract's JSON, an absent artist written as null.
 */
public record Song(String songId, String title, String artist, Instant updatedAt) {
    /** Attribute names the chart reads of a song. */
    public static final String SONG_ID = "songId";
    public static final String TITLE = "title";

    public static final ItemSchema<Song> SCHEMA = ItemSchema.of(Song.class, Songs.SONG, Song::key)
            .optional("artist")
            .build();

    public Key key() {
        return SongKeys.song(songId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Song fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
