package io.tally.domains.songs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Timestamps;
import io.tally.core.http.Json;
import java.util.List;
import java.util.Map;

/** The contract's JSON shapes of songs, downloads and their figures, fields in the documented order. */
final class SongsJson {
    private SongsJson() {
    }

    static ObjectNode song(Song song) {
        ObjectNode json = Json.object();
        json.put("songId", song.songId());
        json.put("title", song.title());
        json.put("artist", song.artist());
        json.put("updatedAt", Timestamps.format(song.updatedAt()));
        return json;
    }

    static ObjectNode download(Download download) {
        ObjectNode json = Json.object();
        json.put("downloadId", download.downloadId());
        json.put("songId", download.songId());
        json.put("userId", download.userId());
        json.put("at", Timestamps.format(download.at()));
        return json;
    }

    /** {@code {"songId", "downloads", "months": {"yyyy-MM": n, ...}}}. */
    static ObjectNode songStats(String songId, SongStore.SongStats stats) {
        ObjectNode json = Json.object();
        json.put("songId", songId);
        json.put("downloads", stats.downloads());
        ObjectNode months = json.putObject("months");
        stats.months().forEach(months::put);
        return json;
    }

    /** {@code "days": [{"day", "downloads"}, ...]}: every day of the range in order, zero where none is counted. */
    static ObjectNode days(ObjectNode json, List<String> days, Map<String, Long> counted) {
        ArrayNode array = json.putArray("days");
        for (String day : days) {
            ObjectNode row = array.addObject();
            row.put("day", day);
            row.put("downloads", counted.getOrDefault(day, 0L));
        }
        return json;
    }

    /** {@code {"month", "items": [{"songId", "title", "downloads"}, ...]}}. */
    static ObjectNode chart(String month, List<SongStore.ChartRow> rows) {
        ObjectNode json = Json.object();
        json.put("month", month);
        ArrayNode items = json.putArray("items");
        for (SongStore.ChartRow row : rows) {
            ObjectNode item = items.addObject();
            item.put("songId", row.songId());
            item.put("title", row.title());
            item.put("downloads", row.downloads());
        }
        return json;
    }
}
