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

/** A song; {@code artist} is optional. A PUT replaces it; songs are never deleted. */
public record Song(String songId, String title, String artist, Instant updatedAt) {
    /** Attribute names of the item. */
    public static final String SONG_ID = "songId";
    public static final String TITLE = "title";
    public static final String ARTIST = "artist";
    public static final String UPDATED_AT = "updatedAt";

    public Key key() {
        return SongKeys.song(songId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, Items.type(Songs.SONG));
        item.put(SONG_ID, s(songId));
        item.put(TITLE, s(title));
        if (artist != null) {
            item.put(ARTIST, s(artist));
        }
        item.put(UPDATED_AT, ts(updatedAt));
        return item;
    }

    public static Song fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Songs.SONG);
        return new Song(
                Items.string(item, SONG_ID),
                Items.string(item, TITLE),
                Items.optionalString(item, ARTIST),
                Items.instant(item, UPDATED_AT));
    }
}
