package io.tally.domains.songs;

import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.Shards;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;

/**
 * The key patterns of songs and downloads (seed 002's aggregation example). Identifiers are validated by
 * {@link io.tally.core.Ids} before they get here, so a {@code #} never reaches a key from user input, and a derived
 * item's subject {@code <songId>#<period>} splits back into its parts.
 *
 * <pre>
 * entity          pk                              sk
 * Song            SONG#&lt;songId&gt;                   #METADATA#
 * Download        SONG#&lt;songId&gt;#DL#&lt;k&gt;           DL#&lt;downloadId&gt;      (k = CRC-32(downloadId) mod DOWNLOAD_SHARDS)
 * derived:
 * SongStats       SONG#&lt;songId&gt;                   #STATS#
 * SongDay         SONG#&lt;songId&gt;                   DAY#&lt;yyyy-MM-dd&gt;
 * SongMonth       SONG#&lt;songId&gt;                   MONTH#&lt;yyyy-MM&gt;       (selector chart:&lt;yyyy-MM&gt;:&lt;k&gt;, data = downloads)
 * DownloadDay     DOWNLOADS#DAYS#&lt;k&gt;              DAY#&lt;yyyy-MM-dd&gt;   (in K slots, as the global totals)
 * </pre>
 */
public final class SongKeys {
    public static final String SONG_PREFIX = "SONG#";
    public static final String METADATA_SK = "#METADATA#";
    public static final String DOWNLOADS_IN_SONG = "#DL#";
    public static final String DOWNLOAD_PREFIX = "DL#";
    public static final String STATS_SK = "#STATS#";
    public static final String DAY_PREFIX = "DAY#";
    public static final String MONTH_PREFIX = "MONTH#";
    /** The partitions of all songs' downloads per day, one per slot: {@code DOWNLOADS#DAYS#<k>}. */
    public static final String ALL_DOWNLOADS_PREFIX = "DOWNLOADS#DAYS#";
    public static final String CHART_PREFIX = "chart:";
    /** Separates the song id from the period in the subject of a per-period derived item. */
    private static final String SUBJECT_SEPARATOR = "#";

    private SongKeys() {
    }

    public static String songPk(String songId) {
        return SONG_PREFIX + songId;
    }

    public static Key song(String songId) {
        return new Key(songPk(songId), METADATA_SK);
    }

    /**
     * A download's item: its partition is one of the song's {@link Songs#DOWNLOAD_SHARDS} download partitions, the
     * suffix calculated from the download id, so that a delete finds the item from the two ids alone.
     */
    public static Key download(String songId, String downloadId) {
        return new Key(downloadsPk(songId, downloadShard(downloadId)), DOWNLOAD_PREFIX + downloadId);
    }

    public static int downloadShard(String downloadId) {
        return Shards.of(downloadId, Songs.DOWNLOAD_SHARDS);
    }

    public static String downloadsPk(String songId, int shard) {
        return songPk(songId) + DOWNLOADS_IN_SONG + shard;
    }

    public static Key songStats(String songId) {
        return new Key(songPk(songId), STATS_SK);
    }

    /** The subject of a song's item of one period (a day or a month): {@code <songId>#<period>}. */
    public static String subject(String songId, String period) {
        return songId + SUBJECT_SEPARATOR + period;
    }

    public static Key songDay(String subject) {
        String[] parts = split(subject);
        return new Key(songPk(parts[0]), DAY_PREFIX + parts[1]);
    }

    public static Key songMonth(String subject) {
        String[] parts = split(subject);
        return new Key(songPk(parts[0]), MONTH_PREFIX + parts[1]);
    }

    /** All songs' downloads on a day, slot 0 (where the derivation addresses it; the engine places each shard's part). */
    public static Key downloadDay(String day) {
        return new Key(allDownloadsPk(0), DAY_PREFIX + day);
    }

    public static String allDownloadsPk(int slot) {
        return ALL_DOWNLOADS_PREFIX + slot;
    }

    /** The CycleSelector partition of a song's chart entry in a month: {@code chart:<yyyy-MM>:<k>}. */
    public static String chartPartition(String month, String songId) {
        return chartPartition(month, Shards.of(songId, Songs.CHART_SHARDS));
    }

    public static String chartPartition(String month, int shard) {
        return CHART_PREFIX + month + ":" + shard;
    }

    /** The UTC day of an instant, {@code yyyy-MM-dd}. */
    public static String day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC).toString();
    }

    /** The UTC month of an instant, {@code yyyy-MM}. */
    public static String month(Instant at) {
        return YearMonth.from(at.atOffset(ZoneOffset.UTC)).toString();
    }

    private static String[] split(String subject) {
        int at = subject.indexOf(SUBJECT_SEPARATOR);
        if (at <= 0 || at == subject.length() - 1) {
            throw new MalformedItemException("not a <songId>#<period> subject: " + subject);
        }
        return new String[] {subject.substring(0, at), subject.substring(at + 1)};
    }
}
