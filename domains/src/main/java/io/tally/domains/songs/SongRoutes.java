package io.tally.domains.songs;

import io.tally.core.Timestamps;
import io.tally.core.domain.EntityResource;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * {@code PUT} and {@code GET /songs/{songId}} ({@link #RESOURCE}), {@code POST /songs/{songId}/downloads},
 * {@code DELETE /songs/{songId}/downloads/{downloadId}} (a refund), and the domain's read side:
 * {@code GET /stats/songs/{songId}}, {@code /stats/songs/{songId}/days}, {@code /stats/downloads/days} and
 * {@code /charts/downloads/{month}} (derived items only, eventually consistent).
 */
record SongRoutes(RouteContext context, SongStore songs) {
    static final int TITLE_MAX = 200;
    static final int ARTIST_MAX = 100;
    static final int CHART_DEFAULT_LIMIT = 10;
    /** The earliest {@code at} of a download. */
    static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    /** How far ahead of the server's clock an {@code at} may be (clients' clocks drift). */
    static final Duration AHEAD = Duration.ofDays(1);
    /** The fields of the bodies of {@code PUT /songs/{songId}} and {@code POST /songs/{songId}/downloads}. */
    private static final Field<String> TITLE = Field.string("title", 1, TITLE_MAX).required();
    private static final Field<String> ARTIST = Field.string("artist", 1, ARTIST_MAX);
    private static final Field<String> DOWNLOAD_ID = Field.id("downloadId");
    private static final Field<String> USER_ID = Field.id("userId");
    /** An ISO-8601 instant ({@link #at}), now when left out. */
    private static final Field<String> AT = Field.string("at", 1, 64);

    /** Songs: created or replaced whole (201 created, 200 replaced), read by any signed-in user, never deleted. */
    static final EntityResource<Song> RESOURCE = EntityResource.at("/songs/{songId}", Song.SCHEMA,
                    ids -> SongKeys.song(ids.get("songId")))
            .replace(Access.ADMIN, "Create or replace a song (201 created, 200 replaced)", Fields.of(TITLE, ARTIST),
                    (ids, body, context) -> new Song(ids.get("songId"), body.get(TITLE), body.get(ARTIST),
                            context.now()))
            .get(Access.SIGNED_IN, "A song");
    private static final Fields DOWNLOAD = Fields.of(DOWNLOAD_ID, USER_ID, AT);

    /** One day of a range and its downloads, zero where none is counted. */
    record DayDownloads(String day, long downloads) {
    }

    /** {@code GET /stats/songs/{songId}/days}: every day of the range, in order. */
    record SongDays(String songId, List<DayDownloads> days) {
    }

    /** {@code GET /stats/downloads/days}: every day of the range, in order, over all songs. */
    record DownloadDays(List<DayDownloads> days) {
    }

    /** {@code GET /charts/downloads/{month}}: the month's top songs. */
    record MonthChart(String month, List<SongStore.ChartRow> items) {
    }

    void register(Router router) {
        router.add("POST", "/songs/{songId}/downloads", Access.ADMIN, this::download)
                    .summary("Record a download of a song").body(DOWNLOAD).returns(201, Download.class)
                .add("DELETE", "/songs/{songId}/downloads/{downloadId}", Access.ADMIN, this::refund)
                    .summary("Refund a download: it stops counting").returns(200, Download.class)
                .add("GET", "/stats/songs/{songId}", Access.READ_SIDE, this::songStats)
                    .summary("A song's downloads, all time and per month").returns(200, SongStore.SongStats.class)
                .add("GET", "/stats/songs/{songId}/days", Access.READ_SIDE, this::songDays)
                    .summary("A song's downloads on every day of a range (at most 366 days)").query("from", "to")
                    .returns(200, SongDays.class)
                .add("GET", "/stats/downloads/days", Access.READ_SIDE, this::allDays)
                    .summary("All songs' downloads on every day of a range (at most 366 days)").query("from", "to")
                    .returns(200, DownloadDays.class)
                .add("GET", "/charts/downloads/{month}", Access.READ_SIDE, this::chart)
                    .summary("A month's top songs by downloads, ties by song id").query("limit")
                    .returns(200, MonthChart.class);
    }

    ApiResponse download(ApiRequest request) {
        String songId = request.id("songId");
        Body body = Body.parse(request.body(), DOWNLOAD);
        String downloadId = body.get(DOWNLOAD_ID);
        String userId = body.get(USER_ID);
        Instant now = context.now();
        Instant at = at(body.get(AT), now);
        Download download = new Download(context.idOrNew(downloadId), songId, userId, at, null);
        songs.download(download);
        return ApiResponse.created(download, "/songs/" + songId + "/downloads/" + download.downloadId());
    }

    ApiResponse refund(ApiRequest request) {
        return ApiResponse.ok(songs.refund(request.id("songId"), request.id("downloadId"), context.now()));
    }

    ApiResponse songStats(ApiRequest request) {
        return ApiResponse.ok(songs.stats(request.id("songId")));
    }

    ApiResponse songDays(ApiRequest request) {
        String songId = request.id("songId");
        Periods.DayRange range = Periods.dayRange(request);
        return ApiResponse.ok(new SongDays(songId, days(range.days(), songs.songDays(songId, range))));
    }

    ApiResponse allDays(ApiRequest request) {
        Periods.DayRange range = Periods.dayRange(request);
        return ApiResponse.ok(new DownloadDays(days(range.days(), songs.allDays(range, context.shards().global()))));
    }

    ApiResponse chart(ApiRequest request) {
        String month = Periods.month(request);
        int limit = Page.limit(request, CHART_DEFAULT_LIMIT);
        return ApiResponse.ok(new MonthChart(month, songs.chart(month, limit)));
    }

    /** Every day of the range in order, zero where none is counted. */
    static List<DayDownloads> days(List<String> days, Map<String, Long> counted) {
        return days.stream().map(day -> new DayDownloads(day, counted.getOrDefault(day, 0L))).toList();
    }

    /** {@code at}: an ISO-8601 instant from 2000-01-01 to one day after now; the server's clock without one. */
    private static Instant at(String value, Instant now) {
        if (value == null) {
            return now;
        }
        Instant at;
        try {
            at = Timestamps.truncate(Instant.parse(value));
        } catch (DateTimeParseException e) {
            throw ApiException.validation("at", "'at' must be an ISO-8601 UTC timestamp");
        }
        if (at.isBefore(EARLIEST) || at.isAfter(now.plus(AHEAD))) {
            throw ApiException.validation("at", "'at' must lie between 2000-01-01T00:00:00Z and one day from now");
        }
        return at;
    }
}
