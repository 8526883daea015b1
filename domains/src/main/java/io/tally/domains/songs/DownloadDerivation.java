package io.tally.domains.songs;

import static io.tally.core.Items.s;

import io.tally.core.TableSchema;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A download that is not refunded counts once in its song's all-time, day and month figures, in all songs' day, and
 * (through {@link SongFigures#DOWNLOADS}) in the global totals. The month's figure is the song's chart entry: every download of the song in the month, refunded
 * or not, holds the entry's document (song, month, chart partition), which is the same for all of them and never
 * removed, so a refund only moves the count.
 *
 * <p>A batch of many downloads of one song on one day is a handful of derived writes: the engine sums the records'
 * counts per derived item (five items with the global totals, whatever the number of downloads).
 *
 * <p>Its events are announcements ({@link SongEvents}).
 */
public final class DownloadDerivation extends EntityDerivation<Download> {
    public DownloadDerivation() {
        super(Songs.DOWNLOAD, Download::fromItem);
    }

    @Override
    protected Contribution contribution(Download download) {
        String day = SongKeys.day(download.at());
        String month = SongKeys.month(download.at());
        String songMonth = SongKeys.subject(download.songId(), month);
        Contribution.Builder contribution = Contribution.builder()
                .document(Songs.SONG_MONTH, songMonth, chartEntry(download.songId(), month));
        if (download.counts()) {
            contribution.count(Songs.SONG_STATS, download.songId(), Songs.DOWNLOADS, 1)
                    .count(Songs.SONG_DAY, SongKeys.subject(download.songId(), day), Songs.DOWNLOADS, 1)
                    .count(Songs.SONG_MONTH, songMonth, TableSchema.DATA, 1)
                    .count(Songs.DOWNLOAD_DAY, day, Songs.DOWNLOADS, 1);
        }
        return contribution.build();
    }

    /**
     * Every state of every download of a song in a month holds the same document, so its revision is the same too:
     * no state's document is newer than another's, and none is ever removed (a download item is never deleted).
     */
    @Override
    protected long revision(Download download) {
        return 0;
    }

    private static Map<String, AttributeValue> chartEntry(String songId, String month) {
        return Map.of(Songs.Month.SONG_ID, s(songId), Songs.Month.MONTH, s(month),
                TableSchema.SELECTOR, s(SongKeys.chartPartition(month, songId)));
    }
}
