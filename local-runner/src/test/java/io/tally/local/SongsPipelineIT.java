package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Song downloads over HTTP on the whole local pipeline: a random, skewed workload of downloads and refunds spread over
 * several months converges, on every figure and every chart position, to what this test computes on its own from the
 * downloads it made.
 */
class SongsPipelineIT {
    private static final int SONGS = 12;
    private static final LocalDate FIRST = LocalDate.parse("2024-11-20");
    private static final int DAYS = 100;

    private static LocalRunner runner;
    private static Api api;

    @BeforeAll
    static void start() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    /** One download as the test made it. */
    private record Made(String downloadId, String songId, Instant at) {
        String day() {
            return LocalDate.ofInstant(at, ZoneOffset.UTC).toString();
        }

        String month() {
            return day().substring(0, 7);
        }
    }

    @Test
    void randomDownloadsAndRefunds_overMonths_convergeToARecomputation() throws Exception {
        Random random = new Random(20240517);
        for (int s = 0; s < SONGS; s++) {
            api.ok("PUT", "/songs/song" + s, "{\"title\":\"Song " + s + "\"}");
        }
        List<Made> counting = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            if (i % 7 == 6 && !counting.isEmpty()) {
                Made refunded = counting.remove(random.nextInt(counting.size()));
                api.ok("DELETE", "/songs/" + refunded.songId() + "/downloads/" + refunded.downloadId(), null);
                continue;
            }
            // Skewed: song0 and song1 take most downloads, and several songs tie on few.
            int song = random.nextInt(3) > 0 ? random.nextInt(2) : random.nextInt(SONGS);
            Instant at = FIRST.atStartOfDay(ZoneOffset.UTC).toInstant()
                    .plusSeconds(random.nextInt(DAYS * 24 * 3600));
            JsonNode made = api.ok("POST", "/songs/song" + song + "/downloads", "{\"at\":\"" + at + "\"}");
            counting.add(new Made(made.path("downloadId").asText(), "song" + song, at));
        }
        runner.awaitDrained(Api.DRAIN_TIMEOUT);

        Map<String, Long> allTime = new TreeMap<>();
        Map<String, Map<String, Long>> months = new TreeMap<>();
        Map<String, Map<String, Long>> songDays = new HashMap<>();
        Map<String, Long> allDays = new HashMap<>();
        for (Made made : counting) {
            allTime.merge(made.songId(), 1L, Long::sum);
            months.computeIfAbsent(made.songId(), s -> new TreeMap<>()).merge(made.month(), 1L, Long::sum);
            songDays.computeIfAbsent(made.songId(), s -> new HashMap<>()).merge(made.day(), 1L, Long::sum);
            allDays.merge(made.day(), 1L, Long::sum);
        }
        String from = FIRST.toString();
        String to = FIRST.plusDays(DAYS - 1).toString();
        for (int s = 0; s < SONGS; s++) {
            String songId = "song" + s;
            JsonNode stats = api.get("/stats/songs/" + songId);
            assertThat(stats.path("downloads").asLong()).as(songId).isEqualTo(allTime.getOrDefault(songId, 0L));
            Map<String, Long> monthsRead = new TreeMap<>();
            stats.path("months").fields().forEachRemaining(e -> monthsRead.put(e.getKey(), e.getValue().asLong()));
            assertThat(monthsRead).as(songId).isEqualTo(months.getOrDefault(songId, Map.of()));
            JsonNode days = api.get("/stats/songs/" + songId + "/days?from=" + from + "&to=" + to).path("days");
            assertThat(days).hasSize(DAYS);
            for (JsonNode day : days) {
                assertThat(day.path("downloads").asLong()).as(songId + " " + day.path("day").asText())
                        .isEqualTo(songDays.getOrDefault(songId, Map.of()).getOrDefault(day.path("day").asText(), 0L));
            }
        }
        for (JsonNode day : api.get("/stats/downloads/days?from=" + from + "&to=" + to).path("days")) {
            assertThat(day.path("downloads").asLong()).isEqualTo(allDays.getOrDefault(day.path("day").asText(), 0L));
        }
        for (String month : List.of("2024-11", "2024-12", "2025-01", "2025-02", "2025-03")) {
            List<String> expected = new ArrayList<>();
            months.entrySet().stream()
                    .filter(e -> e.getValue().getOrDefault(month, 0L) > 0)
                    .map(e -> Map.entry(e.getKey(), e.getValue().get(month)))
                    .sorted(Comparator.comparing((Map.Entry<String, Long> e) -> -e.getValue())
                            .thenComparing(Map.Entry::getKey))
                    .forEach(e -> expected.add(e.getKey() + "=" + e.getValue()));
            List<String> chart = new ArrayList<>();
            api.get("/charts/downloads/" + month + "?limit=100").path("items").forEach(item ->
                    chart.add(item.path("songId").asText() + "=" + item.path("downloads").asLong()));
            assertThat(chart).as(month).isEqualTo(expected);
            List<String> top3 = new ArrayList<>();
            api.get("/charts/downloads/" + month + "?limit=3").path("items").forEach(item ->
                    top3.add(item.path("songId").asText() + "=" + item.path("downloads").asLong()));
            assertThat(top3).as(month).isEqualTo(expected.subList(0, Math.min(3, expected.size())));
        }
        assertThat(api.get("/stats/global").path("downloads").asLong()).isEqualTo(counting.size());
        assertThat(Api.verify(runner).isExact()).isTrue();
    }
}
