package io.tally.domains.songs;

import io.tally.core.Timestamps;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * {@code PUT} and {@code GET /songs/{songId}}, {@code POST /songs/{songId}/downloads},
 * {@code DELETE /songs/{songId}/downloads/{downloadId}} (a refund), and the domain's read side:
 * {@code GET /stats/songs/{songId}}, {@code /stats/songs/{songId}/days}, {@code /stats/downloads/days} and
 * {@code /charts/downloads/{month}} (derived items only, eventually consistent).
 */
final class SongRoutes {
    static final int TITLE_MAX = 200;
    static final int ARTIST_MAX = 100;
    static final int CHART_DEFAULT_LIMIT = 10;
    /** The earliest {@code at} of a download. */
    static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    /** How far ahead of the server's clock an {@code at} may be (clients' clocks drift). */
    static final Duration AHEAD = Duration.ofDays(1);

    private final RouteContext context;
    private final SongStore songs;

    SongRoutes(RouteContext context, SongStore songs) {
        this.context = context;
        this.songs = songs;
    }

    void register(Router router) {
        router.add("PUT", "/songs/{songId}", Access.ADMIN, this::put)
                .add("GET", "/songs/{songId}", Access.SIGNED_IN, this::get)
                .add("POST", "/songs/{songId}/downloads", Access.ADMIN, this::download)
                .add("DELETE", "/songs/{songId}/downloads/{downloadId}", Access.ADMIN, this::refund)
                .add("GET", "/stats/songs/{songId}", Access.READ_SIDE, this::songStats)
                .add("GET", "/stats/songs/{songId}/days", Access.READ_SIDE, this::songDays)
                .add("GET", "/stats/downloads/days", Access.READ_SIDE, this::allDays)
                .add("GET", "/charts/downloads/{month}", Access.READ_SIDE, this::chart);
    }

    ApiResponse put(ApiRequest request) {
        String songId = request.id("songId");
        Body body = Body.parse(request.body(), Set.of("title", "artist"));
        String title = body.requiredString("title", 1, TITLE_MAX);
        String artist = body.optionalString("artist", 1, ARTIST_MAX);
        Song song = new Song(songId, title, artist, context.now());
        if (songs.put(song)) {
            return ApiResponse.created(SongsJson.song(song), "/songs/" + songId);
        }
        return ApiResponse.ok(SongsJson.song(song));
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(SongsJson.song(songs.get(request.id("songId"))));
    }

    ApiResponse download(ApiRequest request) {
        String songId = request.id("songId");
        Body body = Body.parse(request.body(), Set.of("downloadId", "userId", "at"));
        String downloadId = body.optionalId("downloadId");
        String userId = body.optionalId("userId");
        Instant now = context.now();
        Instant at = at(body.optionalString("at", 1, 64), now);
        Download download = new Download(downloadId == null ? context.ids().next() : downloadId, songId, userId, at, null);
        songs.download(download);
        return ApiResponse.created(SongsJson.download(download),
                "/songs/" + songId + "/downloads/" + download.downloadId());
    }

    ApiResponse refund(ApiRequest request) {
        Download refunded = songs.refund(request.id("songId"), request.id("downloadId"), context.now());
        return ApiResponse.ok(SongsJson.download(refunded));
    }

    ApiResponse songStats(ApiRequest request) {
        String songId = request.id("songId");
        return ApiResponse.ok(SongsJson.songStats(songId, songs.stats(songId)));
    }

    ApiResponse songDays(ApiRequest request) {
        String songId = request.id("songId");
        Periods.DayRange range = Periods.dayRange(request);
        var json = Json.object().put("songId", songId);
        return ApiResponse.ok(SongsJson.days(json, range.days(), songs.songDays(songId, range)));
    }

    ApiResponse allDays(ApiRequest request) {
        Periods.DayRange range = Periods.dayRange(request);
        return ApiResponse.ok(SongsJson.days(Json.object(), range.days(), songs.allDays(range)));
    }

    ApiResponse chart(ApiRequest request) {
        String month = Periods.month(request);
        int limit = Page.limit(request, CHART_DEFAULT_LIMIT);
        return ApiResponse.ok(SongsJson.chart(month, songs.chart(month, limit)));
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
