package io.tally.domains.songs;

import io.tally.core.events.EventType;
import java.time.Instant;

/**
 * The songs' events, which the changes of their entities announce ({@link Songs} declares when): {@code SongAdded} when
 * a song is first written (a replaced song announces nothing), and {@code DownloadRefunded} when a download stops
 * counting. A download itself announces nothing: a hot song's thousands a second would be as many events (see
 * {@code docs/events.md}).
 */
public final class SongEvents {
    /** A song added is public data. */
    public static final EventType SONG_ADDED = EventType.publicEvent("SongAdded", SongAdded.class);
    /**
     * A refund is not public: it names who downloaded, which no public route shows (downloads are written and refunded by
     * an admin, and the read side shows only figures).
     */
    public static final EventType DOWNLOAD_REFUNDED = EventType.of("DownloadRefunded", DownloadRefunded.class);

    /** The detail of {@code SongAdded}; the artist null when the song has none. */
    public record SongAdded(String eventId, String songId, String title, String artist) {
        static SongAdded of(String eventId, Song song) {
            return new SongAdded(eventId, song.songId(), song.title(), song.artist());
        }
    }

    /** The detail of {@code DownloadRefunded}: the download as refunded, its user null when it has none. */
    public record DownloadRefunded(String eventId, String downloadId, String songId, String userId, Instant at,
                                   Instant refundedAt) {
        /** When a download that counted stops counting; none for any other change. */
        static DownloadRefunded of(String eventId, Download before, Download after) {
            return before != null && after != null && before.counts() && !after.counts() ? new DownloadRefunded(eventId,
                    after.downloadId(), after.songId(), after.userId(), after.at(), after.refundedAt()) : null;
        }
    }

    private SongEvents() {
    }
}
