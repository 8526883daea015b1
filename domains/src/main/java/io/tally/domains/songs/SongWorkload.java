package io.tally.domains.songs;

import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The songs part of the test kit's workload: songs written and replaced as the writer service writes them, downloads
 * spread over several months and days (backfilled {@code at}s, so that months and days end on either side of a batch),
 * and refunds, which mark a download as the writer's DELETE does. Songs are picked with the workload's skew: with it, a
 * few songs take most downloads.
 */
final class SongWorkload extends AbstractWorkloadPart {
    /**
     * The days the downloads fall on: a few, on both sides of the ends of December 2025 to February 2026 (a year's
     * end, a short February), so that four months and several days each take several downloads, and a test's
     * derived items stay few.
     */
    private static final List<Instant> DAYS = List.of(Instant.parse("2025-12-31T00:00:00Z"),
            Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-15T00:00:00Z"),
            Instant.parse("2026-01-31T00:00:00Z"), Instant.parse("2026-02-28T00:00:00Z"),
            Instant.parse("2026-03-01T00:00:00Z"));

    private final List<String> songs = new ArrayList<>();
    private final List<Download> counting = new ArrayList<>();

    SongWorkload(WorkloadContext context) {
        super(context, "s", 35, false);
    }

    /**
     * Not a download: every download of a song in a month holds the month's chart entry at the same revision, so a
     * download that turned unreadable removes the entry for good (a case of its own, not the poison mix's).
     */
    @Override
    public boolean mayPoison(Map<String, AttributeValue> item) {
        return !Songs.DOWNLOAD.isTypeOf(item);
    }

    @Override
    public void step() {
        Instant now = now();
        int roll = random.nextInt(100);
        if (songs.size() < 3 || roll < 5) {
            String songId = id();
            songs.add(songId);
            put(new Song(songId, "Song " + songId, random.nextBoolean() ? "Artist" : null, now).toItem());
        } else if (roll < 8) {
            String songId = songs.get(random.nextInt(songs.size()));
            put(new Song(songId, "Renamed " + songId, null, now).toItem());
        } else if (roll < 85 || counting.isEmpty()) {
            Instant at = DAYS.get(random.nextInt(DAYS.size())).plus(Duration.ofMinutes(random.nextInt(24 * 60)));
            Download download = new Download(id(), songs.get(context.skewed(songs.size())),
                    random.nextBoolean() ? "u" + random.nextInt(5) : null, at, null);
            counting.add(download);
            put(download.toItem());
        } else {
            Download refunded = counting.remove(random.nextInt(counting.size())).refunded(now);
            put(refunded.toItem());
        }
    }
}
