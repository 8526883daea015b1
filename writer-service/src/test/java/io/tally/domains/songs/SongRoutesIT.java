package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.testkit.LocalDynamoDb;
import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Seed 002's song downloads over the real handler and DynamoDB Local: every route, its shapes and field order, its
 * errors. The figures are derived items written here as the stream processor writes them (the pipeline itself is
 * checked by the local runner's SongsPipelineIT).
 */
class SongRoutesIT {
    private static final Instant START = Instant.parse("2024-03-10T12:00:00Z");

    private final TestClock clock = TestClock.stepping(START, Duration.ofSeconds(1));
    private final TestApi api = TestApi.onFreshTable(clock);

    @BeforeEach
    void song() {
        assertThat(api.call("PUT", "/songs/s1", "{\"title\":\"First\",\"artist\":\"Band\"}").status()).isEqualTo(201);
    }

    @Test
    void songs_putReplaceGet_shapes() {
        var created = api.call("PUT", "/songs/s2", "{\"title\":\"Second\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable().containsExactly("songId", "title", "artist", "updatedAt");
        assertThat(created.body().get("artist").isNull()).isTrue();
        assertThat(created.headers()).containsEntry("Location", "/songs/s2");
        var replaced = api.call("PUT", "/songs/s2", "{\"title\":\"Second (remastered)\",\"artist\":\"Duo\"}");
        assertThat(replaced.status()).isEqualTo(200);
        var got = api.call("GET", "/songs/s2");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.text("title")).isEqualTo("Second (remastered)");
        assertThat(got.text("artist")).isEqualTo("Duo");
        assertThat(got.text("updatedAt")).isEqualTo(replaced.text("updatedAt")).endsWith("Z");
        assertThat(api.call("GET", "/songs/nobody").errorCode()).isEqualTo("not_found");
        assertThat(api.call("PUT", "/songs/s3", "{\"artist\":\"No title\"}").errorField()).isEqualTo("title");
        assertThat(api.call("PUT", "/songs/s3", "{\"title\":\"T\",\"genre\":\"x\"}").errorCode()).isEqualTo("validation_failed");
        assertThat(api.call("PUT", "/songs/bad%23id", "{\"title\":\"T\"}").status()).isEqualTo(400);
    }

    @Test
    void downloads_createGeneratedOrGiven_writeShardedItem_conflictAndMissingSong() {
        var generated = api.call("POST", "/songs/s1/downloads", "{}");
        assertThat(generated.status()).isEqualTo(201);
        assertThat(generated.body().fieldNames()).toIterable().containsExactly("downloadId", "songId", "userId", "at");
        assertThat(generated.text("downloadId")).hasSize(26);
        assertThat(generated.body().get("userId").isNull()).isTrue();
        assertThat(Instant.parse(generated.text("at"))).isAfter(START);

        var given = api.call("POST", "/songs/s1/downloads",
                "{\"downloadId\":\"d1\",\"userId\":\"u1\",\"at\":\"2024-02-29T23:59:59.999Z\"}");
        assertThat(given.status()).isEqualTo(201);
        assertThat(given.body().toString()).isEqualTo(
                "{\"downloadId\":\"d1\",\"songId\":\"s1\",\"userId\":\"u1\",\"at\":\"2024-02-29T23:59:59.999Z\"}");
        Map<String, AttributeValue> item = LocalDynamoDb.client().getItem(r -> r.tableName(api.table())
                .key(SongKeys.download("s1", "d1").toAttributeMap())).item();
        assertThat(item.get(TableSchema.PK).s()).startsWith("SONG#s1#DL#");
        assertThat(Download.fromItem(item).counts()).isTrue();

        assertThat(api.call("POST", "/songs/s1/downloads", "{\"downloadId\":\"d1\"}").errorCode()).isEqualTo("conflict");
        assertThat(api.call("POST", "/songs/nobody/downloads", "{}").status()).isEqualTo(404);
        assertThat(api.call("POST", "/songs/s1/downloads", "{\"downloadId\":\"a#b\"}").errorField()).isEqualTo("downloadId");
        assertThat(api.call("POST", "/songs/s1/downloads", "{\"count\":1}").errorCode()).isEqualTo("validation_failed");
        assertThat(api.call("POST", "/songs/s1/downloads", "not json").errorCode()).isEqualTo("bad_request");
    }

    @ParameterizedTest
    @CsvSource({"1999-12-31T23:59:59.999Z", "2024-03-11T12:00:10Z", "yesterday", "2024-02-30T00:00:00Z"})
    void downloads_atOutsideItsRangeOrUnreadable_isValidationFailed(String at) {
        var response = api.call("POST", "/songs/s1/downloads", "{\"at\":\"" + at + "\"}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().get("error").fieldNames()).toIterable().containsExactly("code", "message", "field");
        assertThat(response.errorCode()).isEqualTo("validation_failed");
        assertThat(response.errorField()).isEqualTo("at");
    }

    @Test
    void downloads_atBoundsAreIncluded() {
        assertThat(api.call("POST", "/songs/s1/downloads", "{\"at\":\"2000-01-01T00:00:00.000Z\"}").status()).isEqualTo(201);
        assertThat(api.call("POST", "/songs/s1/downloads", "{\"at\":\"2024-03-11T12:00:00Z\"}").status()).isEqualTo(201);
    }

    @Test
    void refund_marksTheDownloadOnce_thenNotFound() {
        api.call("POST", "/songs/s1/downloads", "{\"downloadId\":\"d1\",\"at\":\"2024-03-01T10:00:00Z\"}");
        var refunded = api.call("DELETE", "/songs/s1/downloads/d1");
        assertThat(refunded.status()).isEqualTo(200);
        assertThat(refunded.body().toString()).isEqualTo(
                "{\"downloadId\":\"d1\",\"songId\":\"s1\",\"userId\":null,\"at\":\"2024-03-01T10:00:00.000Z\"}");
        Map<String, AttributeValue> item = LocalDynamoDb.client().getItem(r -> r.tableName(api.table())
                .key(SongKeys.download("s1", "d1").toAttributeMap())).item();
        assertThat(Download.fromItem(item).counts()).isFalse();
        assertThat(api.call("DELETE", "/songs/s1/downloads/d1").status()).isEqualTo(404);
        assertThat(api.call("DELETE", "/songs/s1/downloads/nothing").errorCode()).isEqualTo("not_found");
        assertThat(api.call("DELETE", "/songs/nobody/downloads/d1").status()).isEqualTo(404);
        assertThat(api.call("POST", "/songs/s1/downloads", "{\"downloadId\":\"d1\"}").status()).isEqualTo(409);
    }

    @Test
    void songStats_allTimeAndMonthsWithDownloads_zerosBeforeAnything_404ForNoSong() {
        assertThat(api.call("GET", "/stats/songs/s1").body().toString())
                .isEqualTo("{\"songId\":\"s1\",\"downloads\":0,\"months\":{}}");
        put(Songs.SONG_STATS.key("s1"), Songs.SONG_STATS, Map.of("downloads", n(7)));
        putMonth("s1", "2024-01", 5);
        putMonth("s1", "2024-02", 0);
        putMonth("s1", "2023-12", 2);
        var stats = api.call("GET", "/stats/songs/s1");
        assertThat(stats.status()).isEqualTo(200);
        assertThat(stats.body().toString())
                .isEqualTo("{\"songId\":\"s1\",\"downloads\":7,\"months\":{\"2023-12\":2,\"2024-01\":5}}");
        assertThat(api.call("GET", "/stats/songs/nobody").status()).isEqualTo(404);
    }

    @Test
    void days_everyDayOfTheRangeInOrder_zerosIncluded() {
        put(Songs.SONG_DAY.key("s1#2024-02-28"), Songs.SONG_DAY, Map.of("downloads", n(3)));
        put(Songs.SONG_DAY.key("s1#2024-03-02"), Songs.SONG_DAY, Map.of("downloads", n(4)));
        put(Songs.SONG_DAY.key("s1#2024-03-03"), Songs.SONG_DAY, Map.of("downloads", n(9)));
        put(Songs.DOWNLOAD_DAY.key("2024-02-29"), Songs.DOWNLOAD_DAY, Map.of("downloads", n(11)));
        var days = api.call("GET", "/stats/songs/s1/days?from=2024-02-28&to=2024-03-02");
        assertThat(days.status()).isEqualTo(200);
        assertThat(days.body().toString()).isEqualTo("{\"songId\":\"s1\",\"days\":["
                + "{\"day\":\"2024-02-28\",\"downloads\":3},{\"day\":\"2024-02-29\",\"downloads\":0},"
                + "{\"day\":\"2024-03-01\",\"downloads\":0},{\"day\":\"2024-03-02\",\"downloads\":4}]}");
        var all = api.call("GET", "/stats/downloads/days?from=2024-02-29&to=2024-02-29");
        assertThat(all.body().toString()).isEqualTo("{\"days\":[{\"day\":\"2024-02-29\",\"downloads\":11}]}");
        // A stream shard's partial of the day (DownloadDay is shared) counts in the day, in every slot.
        put(Songs.DOWNLOAD_DAY.partial(Songs.DOWNLOAD_DAY.inSlot(Songs.DOWNLOAD_DAY.key("2024-02-29"), "2"),
                "k5sxg2lom4qgs3tf"), Songs.DOWNLOAD_DAY, Map.of("downloads", n(5)));
        assertThat(api.call("GET", "/stats/downloads/days?from=2024-02-28&to=2024-02-29").body().toString())
                .isEqualTo("{\"days\":[{\"day\":\"2024-02-28\",\"downloads\":0},{\"day\":\"2024-02-29\","
                        + "\"downloads\":16}]}");
        assertThat(api.call("GET", "/stats/songs/s1/days?from=2024-01-01&to=2024-12-31").body().get("days"))
                .hasSize(366);
        assertThat(api.call("GET", "/stats/songs/nobody/days?from=2024-01-01&to=2024-01-02").status()).isEqualTo(404);
    }

    @ParameterizedTest
    @CsvSource({
            "/stats/songs/s1/days?from=2024-01-01&to=2025-01-01, to",
            "/stats/songs/s1/days?from=2024-03-02&to=2024-03-01, from",
            "/stats/songs/s1/days?from=2024-02-30&to=2024-03-01, from",
            "/stats/songs/s1/days?to=2024-03-01, from",
            "/stats/downloads/days?from=2024-03-01, to",
            "/stats/downloads/days?from=24-03-01&to=2024-03-01, from",
            "/stats/downloads/days?from=2022-12-31&to=2024-01-01, to",
            "/charts/downloads/2024-03?limit=0, limit",
            "/charts/downloads/2024-03?limit=101, limit",
            "/charts/downloads/2024-03?limit=ten, limit",
            "/charts/downloads/2024-13, month",
            "/charts/downloads/2024-3, month",
            "/charts/downloads/March, month"})
    void reads_badMonthRangeOrLimit_are400WithTheEnvelope(String path, String field) {
        var response = api.call("GET", path);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().fieldNames()).toIterable().containsExactly("error");
        assertThat(response.errorCode()).isIn("bad_request", "validation_failed");
        assertThat(response.errorField()).isEqualTo(field);
    }

    @Test
    void chart_mergedAcrossShards_byDownloadsThenSongId_zerosLeftOut_titlesOfTheSongs() {
        // Enough songs that every chart partition holds some, and ties at the cut across partitions.
        for (int i = 0; i < 40; i++) {
            String songId = "song" + (char) ('a' + i % 26) + i;
            api.call("PUT", "/songs/" + songId, "{\"title\":\"Title " + songId + "\"}");
            putMonth(songId, "2024-03", i < 30 ? 5 : i);
        }
        putMonth("s1", "2024-03", 0);
        putMonth("s1", "2024-02", 1000);
        var chart = api.call("GET", "/charts/downloads/2024-03?limit=13");
        assertThat(chart.status()).isEqualTo(200);
        assertThat(chart.body().fieldNames()).toIterable().containsExactly("month", "items");
        assertThat(chart.text("month")).isEqualTo("2024-03");
        var items = chart.body().get("items");
        assertThat(items).hasSize(13);
        assertThat(items.get(0).fieldNames()).toIterable().containsExactly("songId", "title", "downloads");
        StringBuilder order = new StringBuilder();
        items.forEach(item -> order.append(item.get("songId").asText()).append('=')
                .append(item.get("downloads").asLong()).append(' '));
        // 39..30 downloads for songs 39..30, then the three lowest song ids among the 30 songs with 5.
        assertThat(order.toString().trim()).isEqualTo("songn39=39 songm38=38 songl37=37 songk36=36 songj35=35"
                + " songi34=34 songh33=33 songg32=32 songf31=31 songe30=30 songa0=5 songa26=5 songb1=5");
        assertThat(items.get(0).get("title").asText()).isEqualTo("Title songn39");
        var defaults = api.call("GET", "/charts/downloads/2024-03");
        assertThat(defaults.body().get("items")).hasSize(10);
        assertThat(api.call("GET", "/charts/downloads/2024-04").body().toString())
                .isEqualTo("{\"month\":\"2024-04\",\"items\":[]}");
        assertThat(api.call("GET", "/charts/downloads/2024-02?limit=100").body().get("items")).hasSize(1);
    }

    @Test
    void globalStats_hasDownloads_inTheRegistrationOrder() {
        assertThat(api.call("GET", "/stats/global").body().fieldNames()).toIterable()
                .containsSequence("employees", "downloads");
    }

    private void putMonth(String songId, String month, long downloads) {
        Map<String, AttributeValue> attributes = new HashMap<>();
        attributes.put(TableSchema.DATA, n(downloads));
        attributes.put(Songs.Month.SONG_ID, AttributeValue.fromS(songId));
        attributes.put(Songs.Month.MONTH, AttributeValue.fromS(month));
        attributes.put(TableSchema.SELECTOR, AttributeValue.fromS(SongKeys.chartPartition(month, songId)));
        put(Songs.SONG_MONTH.key(SongKeys.subject(songId, month)), Songs.SONG_MONTH, attributes);
    }

    private void put(Key key, io.tally.core.DerivedType type, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(type.name()));
        item.put(TableSchema.WATERMARKS + "_shardId-00000001", AttributeValue.fromS("000000000000000000042"));
        item.putAll(attributes);
        LocalDynamoDb.client().putItem(r -> r.tableName(api.table()).item(item));
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
