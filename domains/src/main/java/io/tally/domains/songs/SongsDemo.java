package io.tally.domains.songs;

import static io.tally.core.demo.DemoApi.body;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Six songs with a fortnight of downloads, then a steady stream of downloads, most of them on the first songs. */
final class SongsDemo {
    /** The demo's songs; the first ones take most of the synthetic load's downloads. */
    static final List<String> SONGS = List.of("hot-song", "warm-song", "song-3", "song-4", "song-5", "song-6");

    private SongsDemo() {
    }

    /** The songs, and a fortnight of downloads before today, so the charts have a history. */
    static void seed(DemoApi api) throws IOException, InterruptedException {
        for (int i = 0; i < SONGS.size(); i++) {
            api.write("PUT", "/songs/" + SONGS.get(i), body("title", "Demo song " + (i + 1), "artist", "The Demo Band"));
        }
        // Each song about half the downloads of the one before.
        Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS);
        for (int i = 0; i < SONGS.size(); i++) {
            for (int n = 0; n < 16 >> i; n++) {
                String at = today.minus(Duration.ofDays(1 + (n * 5L + i) % 14)).plusSeconds(3600L * (n % 20)).toString();
                api.write("POST", "/songs/" + SONGS.get(i) + "/downloads", body("downloadId", "seed-" + n, "userId",
                        n % 2 == 0 ? "user-8790" : "user-1001", "at", at));
            }
        }
    }

    /**
     * A download of one of the demo's songs, skewed: each song takes about half the downloads of the one before it, so
     * the first two take three quarters. Now and then a refund of a recent download instead.
     */
    static final class Load implements DemoLoad {
        private static final int MAX_KNOWN = 10_000;
        /** Paths of downloads the load made, for a refund now and then. */
        private final List<String> downloads = new ArrayList<>();

        @Override
        public int weight() {
            return 1;
        }

        @Override
        public DemoApi.Reply write(DemoApi api, Random random) throws IOException, InterruptedException {
            if (!downloads.isEmpty() && random.nextInt(20) == 0) {
                return api.send("DELETE", downloads.remove(downloads.size() - 1), null);
            }
            int song = 0;
            while (song < SONGS.size() - 1 && random.nextBoolean()) {
                song++;
            }
            String path = "/songs/" + SONGS.get(song) + "/downloads";
            DemoApi.Reply reply = api.send("POST", path, body());
            JsonNode id = reply.body().path("downloadId");
            if (reply.ok() && id.isTextual() && downloads.size() < MAX_KNOWN) {
                downloads.add(path + "/" + id.asText());
            }
            return reply;
        }
    }
}
