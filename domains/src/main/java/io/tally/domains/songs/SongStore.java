package io.tally.domains.songs;

import io.tally.core.Items;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.SharedReads;
import io.tally.core.read.StatsJson;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import io.tally.core.view.RankingReads;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Songs and downloads, and the domain's read side: figures read from the derived items the stream processor
 * maintains, by key, by a range of one partition, or from the chart's index partitions; never from the downloads.
 */
final class SongStore {
    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Song> songs;
    private final TypedTable<Download> downloads;

    SongStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.songs = TypedTable.of(dynamo, table, Song.SCHEMA);
        this.downloads = TypedTable.of(dynamo, table, Download.SCHEMA);
    }

    /**
     * R20: a song; a download reads it too (songs are never deleted, so a song seen once exists for good, and the
     * download's own put needs no transaction with a condition check on the song's item, which would cost the hot
     * song's partition two write units a download).
     */
    Song get(String songId) {
        return songs.get(SongKeys.song(songId)).orElseThrow(() -> notFound(songId));
    }

    /** W17: records a download of an existing song in its song's write shard; an id taken is a {@code conflict}. */
    void download(Download download) {
        get(download.songId());
        if (!downloads.putNew(download)) {
            throw ApiException.conflict("download '" + download.downloadId() + "' already exists");
        }
    }

    /**
     * W18: a refund marks the download, which then stops counting, and answers it as it is now; one that does not
     * exist or was refunded already is {@code not_found}. The item stays, so its id stays taken.
     */
    Download refund(String songId, String downloadId, Instant now) {
        return downloads.update(SongKeys.download(songId, downloadId), Update.of().set(Download.REFUNDED_AT, now),
                Condition.exists().and(Condition.lacks(Download.REFUNDED_AT)), current -> {
                    throw ApiException.notFound("song '" + songId + "' has no download '" + downloadId
                            + "' that counts");
                });
    }

    /** A song's all-time downloads and each month's (the months with downloads, in order). */
    SongStats stats(String songId) {
        get(songId);
        Map<String, AttributeValue> stats = SharedReads.whole(dynamo, table, Songs.SONG_STATS.key(songId),
                DerivedReads.counters(Songs.SONG_STATS));
        StatsJson.check(stats, Songs.SONG_STATS.entityType());
        Map<String, Long> months = new LinkedHashMap<>();
        // D9: a song's months, in order.
        Query monthItems = Query.partition(SongKeys.songPk(songId)).between(TableSchema.SK, SongKeys.MONTH_PREFIX,
                SongKeys.MONTH_PREFIX + "~").attributes(TableSchema.SK, TableSchema.ENTITY_TYPE, TableSchema.DATA);
        for (Map<String, AttributeValue> item : monthItems.all(dynamo, table)) {
            long downloads = StatsJson.counter(item, TableSchema.DATA);
            if (downloads != 0) {
                months.put(period(item, SongKeys.MONTH_PREFIX), downloads);
            }
        }
        return new SongStats(songId, StatsJson.counter(stats, Songs.DOWNLOADS), months);
    }

    /** A song's downloads on each day of the range (days without any left out). */
    Map<String, Long> songDays(String songId, Periods.DayRange range) {
        get(songId);
        // D10: with their per-shard partials ({@link Songs#SONG_DAY} is shared).
        return days(SongKeys.songPk(songId), range);
    }

    /**
     * All songs' downloads per day of the range: the sum over the {@code slots} partitions the stream processor spreads
     * them over ({@code GLOBAL_SHARDS}, as the global totals), one query each.
     */
    Map<String, Long> allDays(Periods.DayRange range, int slots) {
        Map<String, Long> days = new HashMap<>();
        for (int slot = 0; slot < slots; slot++) {
            // D11: with their per-shard partials ({@link Songs#DOWNLOAD_DAY} is shared).
            days(SongKeys.allDownloadsPk(slot), range)
                    .forEach((day, downloads) -> days.merge(day, downloads, Long::sum));
        }
        return days;
    }

    /**
     * The month's chart: the top of its index partitions, merged, ties at the last place read whole so that their
     * order by song id is exact ({@link RankingReads}, as every ranking's); then the songs' titles.
     */
    List<ChartRow> chart(String month, int limit) {
        List<String> partitions = IntStream.range(0, Songs.CHART_SHARDS)
                .mapToObj(shard -> SongKeys.chartPartition(month, shard)).toList();
        List<RankingReads.Ranked> top = RankingReads.top(dynamo, table, partitions, SongStore::entry, limit);
        Map<String, String> titles = new HashMap<>();
        if (!top.isEmpty()) {
            // At most 100 songs, one BatchGetItem.
            BatchReads.getAll(dynamo, table, top.stream().map(e -> SongKeys.song(e.group())).toList(),
                            List.of(Song.SONG_ID, Song.TITLE))
                    .forEach(song -> titles.put(Items.string(song, Song.SONG_ID), Items.string(song, Song.TITLE)));
        }
        return top.stream().map(e -> new ChartRow(e.group(), titles.get(e.group()), e.figure())).toList();
    }

    /** {@code GET /stats/songs/{songId}}: a song's figures, all time and per month with downloads ({@code yyyy-MM}). */
    record SongStats(String songId, long downloads, Map<String, Long> months) {
    }

    /** One place of a chart; the title null when the song could not be read. */
    record ChartRow(String songId, String title, long downloads) {
    }

    /** The days of the range in a partition of days, with the per-shard partials beside each. */
    private Map<String, Long> days(String pk, Periods.DayRange range) {
        Query query = Query.partition(pk).between(TableSchema.SK, SongKeys.DAY_PREFIX + range.from(),
                PartialKeys.partialsUpTo(SongKeys.DAY_PREFIX + range.to()))
                .attributes(TableSchema.SK, TableSchema.ENTITY_TYPE, Songs.DOWNLOADS);
        Map<String, Long> days = new HashMap<>();
        for (Map<String, AttributeValue> item : query.all(dynamo, table)) {
            // A day of all songs is a base item and the partials beside it ({@link Songs#DOWNLOAD_DAY} is shared).
            Map<String, AttributeValue> whole = new HashMap<>(item);
            whole.put(TableSchema.SK, AttributeValue.fromS(PartialKeys.baseSortKey(Items.string(item, TableSchema.SK))));
            days.merge(period(whole, SongKeys.DAY_PREFIX), StatsJson.counter(item, Songs.DOWNLOADS), Long::sum);
        }
        return days;
    }

    private static RankingReads.Ranked entry(Map<String, AttributeValue> item) {
        StatsJson.check(item, Songs.SONG_MONTH.entityType());
        return new RankingReads.Ranked(Items.string(item, Songs.Month.SONG_ID), Items.number(item, TableSchema.DATA));
    }

    private static String period(Map<String, AttributeValue> item, String prefix) {
        return Items.string(item, TableSchema.SK).substring(prefix.length());
    }

    static ApiException notFound(String songId) {
        return ApiException.notFound("song '" + songId + "' does not exist");
    }
}
