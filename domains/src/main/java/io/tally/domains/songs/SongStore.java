package io.tally.domains.songs;

import io.tally.core.Items;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.SharedReads;
import io.tally.core.read.StatsJson;
import io.tally.core.view.RankingReads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Songs and downloads, and the domain's read side: figures read from the derived items the stream processor
 * maintains, by key, by a range of one partition, or from the chart's index partitions; never from the downloads.
 */
record SongStore(DynamoDbClient dynamo, String table) {
    /** Creates or replaces the song; true when it did not exist before. */
    boolean put(Song song) {
        Map<String, AttributeValue> old = dynamo.putItem(SongRequests.put(table, song)).attributes();
        return old == null || old.isEmpty();
    }

    Song get(String songId) {
        Map<String, AttributeValue> item = DerivedReads.found(dynamo.getItem(SongRequests.get(table, songId)));
        if (item == null) {
            throw notFound(songId);
        }
        return Song.fromItem(item);
    }

    /** Records a download of an existing song; an id taken (in this song) is a {@code conflict}. */
    void download(Download download) {
        get(download.songId());
        try {
            dynamo.putItem(SongRequests.createDownload(table, download));
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.conflict("download '" + download.downloadId() + "' already exists");
        }
    }

    /** Refunds a download that counts, and returns it as it is now; any other is {@code not_found}. */
    Download refund(String songId, String downloadId, Instant now) {
        try {
            return Download.fromItem(dynamo.updateItem(SongRequests.refund(table, songId, downloadId, now)).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.notFound("song '" + songId + "' has no download '" + downloadId + "' that counts");
        }
    }

    /** A song's all-time downloads and each month's (the months with downloads, in order). */
    SongStats stats(String songId) {
        get(songId);
        Map<String, AttributeValue> stats = SharedReads.whole(dynamo, table, Songs.SONG_STATS.key(songId),
                DerivedReads.counters(Songs.SONG_STATS));
        StatsJson.check(stats, Songs.SONG_STATS.entityType());
        Map<String, Long> months = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : query(SongRequests.months(table, songId))) {
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
        return days(SongRequests.songDays(table, songId, range.from().toString(), range.to().toString()));
    }

    /** All songs' downloads on each day of the range (days without any left out). */
    /**
     * All songs' downloads per day of the range: the sum over the {@code slots} partitions the stream processor spreads
     * them over ({@code GLOBAL_SHARDS}, as the global totals), one query each.
     */
    Map<String, Long> allDays(Periods.DayRange range, int slots) {
        Map<String, Long> days = new HashMap<>();
        for (int slot = 0; slot < slots; slot++) {
            days(SongRequests.allDays(table, slot, range.from().toString(), range.to().toString()))
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
            BatchReads.getAll(dynamo, table, SongRequests.titles(table, top.stream().map(RankingReads.Ranked::group)
                            .toList()))
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

    private Map<String, Long> days(QueryRequest request) {
        Map<String, Long> days = new HashMap<>();
        for (Map<String, AttributeValue> item : query(request)) {
            // A day of all songs is a base item and the partials beside it ({@link Songs#DOWNLOAD_DAY} is shared).
            Map<String, AttributeValue> whole = new HashMap<>(item);
            whole.put(TableSchema.SK, AttributeValue.fromS(PartialKeys.baseSortKey(Items.string(item, TableSchema.SK))));
            days.merge(period(whole, SongKeys.DAY_PREFIX), StatsJson.counter(item, Songs.DOWNLOADS), Long::sum);
        }
        return days;
    }

    private List<Map<String, AttributeValue>> query(QueryRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamo.queryPaginator(request).items().forEach(items::add);
        return items;
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
