package io.tally.domains.songs;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A song counts nothing (the chart reads its title at read time, so a renamed song needs no derived write); it
 * announces {@code SongAdded} when it is first written. Its image is still read, so that an unreadable song goes to
 * the dead-letter route.
 */
public final class SongDerivation extends EntityDerivation<Song> {
    public static final String SONG_ADDED = "SongAdded";

    public SongDerivation() {
        super(Songs.SONG);
    }

    @Override
    protected Song read(Map<String, AttributeValue> image) {
        return Song.fromItem(image);
    }

    @Override
    protected Contribution contribution(Song song) {
        return Contribution.NONE;
    }

    @Override
    protected List<DomainEvent> events(String eventId, Song before, Song after) {
        if (before != null || after == null) {
            return List.of();
        }
        String id = DomainEvent.idFor(eventId, SONG_ADDED, after.songId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("songId", after.songId());
        detail.put("title", after.title());
        detail.put("artist", after.artist());
        return List.of(new DomainEvent(id, SONG_ADDED, detail));
    }
}
