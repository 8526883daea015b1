package io.tally.domains.songs;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.util.List;

/**
 * A song counts nothing (the chart reads its title at read time, so a renamed song needs no derived write); it
 * announces {@code SongAdded} when it is first written. Its image is still read, so that an unreadable song goes to
 * the dead-letter route.
 */
public final class SongDerivation extends EntityDerivation<Song> {
    public static final EventType SONG_ADDED = EventType.publicEvent("SongAdded", SongAdded.class);

    /** The detail of {@code SongAdded}; the artist null when the song has none. */
    public record SongAdded(String eventId, String songId, String title, String artist) {
    }

    public SongDerivation() {
        super(Songs.SONG, Song::fromItem);
    }

    @Override
    protected Contribution contribution(Song song) {
        return Contribution.NONE;
    }

    @Override
    protected List<DomainEvent> events(String eventId, Song before, Song after) {
        return created(before, after, song -> DomainEvent.about(eventId, SONG_ADDED, song.songId(),
                id -> new SongAdded(id, song.songId(), song.title(), song.artist())));
    }
}
