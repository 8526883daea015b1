package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.LocalDynamoDb;
import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemRoutesIT {
    private static final Instant START = Instant.parse("2019-01-22T10:00:00Z");

    private final TestClock clock = TestClock.stepping(START, Duration.ofSeconds(1));
    private final TestApi api = TestApi.onFreshTable(clock);

    @Test
    void putItem_new_returns201WithLocationAndFieldsInOrder() {
        var created = api.call("PUT", "/items/item-55", "{\"title\":\"Tides\",\"score\":70,\"selector\":\"global-cycle:5\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).containsEntry("Location", "/items/item-55");
        assertThat(created.body().fieldNames()).toIterable()
                .containsExactly("itemId", "title", "score", "selector", "updatedAt");
        assertThat(created.text("itemId")).isEqualTo("item-55");
        assertThat(created.text("title")).isEqualTo("Tides");
        assertThat(created.body().get("score").isIntegralNumber()).isTrue();
        assertThat(created.body().get("score").asLong()).isEqualTo(70);
        assertThat(created.text("selector")).isEqualTo("global-cycle:5");
        assertThat(created.text("updatedAt")).isEqualTo("2019-01-22T10:00:00.000Z");
    }

    @Test
    void putItem_existing_returns200AndReplacesEveryField() {
        api.call("PUT", "/items/item-3", "{\"title\":\"Old\",\"score\":1,\"selector\":\"user-cycle:1\"}");

        var replaced = api.call("PUT", "/items/item-3", "{\"score\":99,\"selector\":\"back-catalogue\"}");

        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.headers()).doesNotContainKey("Location");
        assertThat(replaced.body().get("title").isNull()).isTrue();
        assertThat(replaced.body().get("score").asLong()).isEqualTo(99);
        assertThat(replaced.text("selector")).isEqualTo("back-catalogue");
        assertThat(api.call("GET", "/items/item-3").body()).isEqualTo(replaced.body());
    }

    @Test
    void putItem_withoutTitle_rendersTitleNull() {
        var created = api.call("PUT", "/items/item-45", "{\"score\":87,\"selector\":\"back-catalogue\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable()
                .containsExactly("itemId", "title", "score", "selector", "updatedAt");
        assertThat(created.body().get("title").isNull()).isTrue();
    }

    @Test
    void putItem_boundaryScores_areAccepted() {
        assertThat(api.call("PUT", "/items/low", "{\"score\":0,\"selector\":\"back-catalogue\"}").status()).isEqualTo(201);
        var high = api.call("PUT", "/items/high", "{\"score\":1000000000,\"selector\":\"global-cycle:999999999\"}");
        assertThat(high.status()).isEqualTo(201);
        assertThat(high.body().get("score").asLong()).isEqualTo(1_000_000_000L);
    }

    @Test
    void putItem_selector_isStoredOutsideTheIndexAttribute() {
        api.call("PUT", "/items/item-84", "{\"score\":35,\"selector\":\"user-cycle:1\"}");

        Map<String, AttributeValue> stored = LocalDynamoDb.client()
                .getItem(b -> b.tableName(api.table()).key(CatalogueKeys.catalogueItem("item-84").toAttributeMap()))
                .item();
        assertThat(stored).doesNotContainKey("selector").doesNotContainKey("data");
        assertThat(stored.get("itemSelector").s()).isEqualTo("user-cycle:1");
        assertThat(stored.get("entityType").s()).isEqualTo("CatalogueItem");
    }

    @Test
    void getItem_existing_returns200SameAsPut() {
        var created = api.call("PUT", "/items/item-65", "{\"title\":\"Rain\",\"score\":80,\"selector\":\"global-cycle:5\"}");

        var read = api.call("GET", "/items/item-65");

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(created.body());
    }

    @Test
    void getItem_unknown_returns404() {
        var missing = api.call("GET", "/items/nothing");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
    }

    @Test
    void deleteItem_existing_returns200WithDeletedItemAndRemovesIt() {
        var created = api.call("PUT", "/items/item-102", "{\"title\":\"Gone\",\"score\":60,\"selector\":\"back-catalogue\"}");

        var deleted = api.call("DELETE", "/items/item-102");

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.body()).isEqualTo(created.body());
        assertThat(api.call("GET", "/items/item-102").status()).isEqualTo(404);
        assertThat(api.call("PUT", "/items/item-102", "{\"score\":1,\"selector\":\"back-catalogue\"}").status())
                .as("a hard delete: putting the id again creates it anew").isEqualTo(201);
    }

    @Test
    void deleteItem_unknown_returns404() {
        var missing = api.call("DELETE", "/items/nothing");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
    }

    @Test
    void putItem_stampsTheClockInMicrosecondsAsRevision_higherOnEveryPut_andNeverRendersIt() {
        var created = api.call("PUT", "/items/item-r", "{\"title\":\"One\",\"score\":1,\"selector\":\"back-catalogue\"}");
        long first = storedRevision(api, "item-r");
        var replaced = api.call("PUT", "/items/item-r", "{\"title\":\"Two\",\"score\":2,\"selector\":\"back-catalogue\"}");
        long second = storedRevision(api, "item-r");

        assertThat(first).isEqualTo(micros(START));
        assertThat(second).isEqualTo(micros(START.plusSeconds(1)));
        for (var response : List.of(created, replaced, api.call("GET", "/items/item-r"),
                api.call("DELETE", "/items/item-r"))) {
            assertThat(response.body().fieldNames()).toIterable()
                    .containsExactly("itemId", "title", "score", "selector", "updatedAt");
        }
    }

    @Test
    void putItem_sameMicrosecond_goesOneAboveTheStoredRevision() {
        TestApi frozen = TestApi.onFreshTable(new TestClock(START));

        var created = frozen.call("PUT", "/items/hot", "{\"score\":1,\"selector\":\"back-catalogue\"}");
        var replaced = frozen.call("PUT", "/items/hot", "{\"score\":2,\"selector\":\"back-catalogue\"}");
        var again = frozen.call("PUT", "/items/hot", "{\"score\":3,\"selector\":\"back-catalogue\"}");

        assertThat(List.of(created.status(), replaced.status(), again.status())).containsExactly(201, 200, 200);
        assertThat(storedRevision(frozen, "hot")).isEqualTo(micros(START) + 2);
        assertThat(frozen.call("GET", "/items/hot").body().get("score").asLong()).isEqualTo(3);
    }

    @Test
    void putItem_storedRevisionAheadOfTheClock_replacesWithOneAboveIt() {
        long ahead = micros(START) + 3_600_000_000L;
        putDirectly(api, new CatalogueItem("skewed", "Old", 1, "back-catalogue", START, ahead).toItem());

        var replaced = api.call("PUT", "/items/skewed", "{\"title\":\"New\",\"score\":2,\"selector\":\"back-catalogue\"}");

        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.text("title")).isEqualTo("New");
        assertThat(storedRevision(api, "skewed")).isEqualTo(ahead + 1);
    }

    @Test
    void putItem_overAnItemWrittenBeforeRevisions_returns200AndStampsOne() {
        Map<String, AttributeValue> legacy = new HashMap<>(
                new CatalogueItem("legacy", "Old", 1, "back-catalogue", START, 0).toItem());
        legacy.remove(CatalogueItem.REVISION);
        putDirectly(api, legacy);
        assertThat(api.call("GET", "/items/legacy").text("title")).isEqualTo("Old");

        var replaced = api.call("PUT", "/items/legacy", "{\"title\":\"New\",\"score\":2,\"selector\":\"back-catalogue\"}");

        assertThat(replaced.status()).isEqualTo(200);
        assertThat(storedRevision(api, "legacy")).isEqualTo(micros(START));
    }

    @Test
    void putItem_recreatedAfterDelete_getsARevisionAboveTheDeletedOne() {
        api.call("PUT", "/items/again", "{\"score\":1,\"selector\":\"back-catalogue\"}");
        long deleted = storedRevision(api, "again");
        api.call("DELETE", "/items/again");

        var recreated = api.call("PUT", "/items/again", "{\"score\":2,\"selector\":\"back-catalogue\"}");

        assertThat(recreated.status()).isEqualTo(201);
        assertThat(storedRevision(api, "again")).isGreaterThan(deleted);
    }

    @Test
    void putItem_concurrentPutsOfOneItem_oneCreatesTheOthersReplace_revisionsAllDistinct() throws Exception {
        TestApi frozen = TestApi.onFreshTable(new TestClock(START));
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int score = i;
                statuses.add(pool.submit(() -> frozen.call("PUT", "/items/contended",
                        "{\"score\":" + score + ",\"selector\":\"back-catalogue\"}").status()));
            }
            List<Integer> answers = new ArrayList<>();
            for (var status : statuses) {
                answers.add(status.get());
            }
            assertThat(answers).containsOnly(200, 201).filteredOn(status -> status == 201).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        // Every put went one above the one before it: the frozen clock plus one per put after the first.
        assertThat(storedRevision(frozen, "contended")).isEqualTo(micros(START) + writers - 1);
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000L;
    }

    private static long storedRevision(TestApi api, String itemId) {
        return Long.parseLong(LocalDynamoDb.client().getItem(b -> b.tableName(api.table()).consistentRead(true)
                .key(CatalogueKeys.catalogueItem(itemId).toAttributeMap())).item().get(CatalogueItem.REVISION).n());
    }

    private static void putDirectly(TestApi api, Map<String, AttributeValue> item) {
        LocalDynamoDb.client().putItem(b -> b.tableName(api.table()).item(item));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"selector\":\"back-catalogue\"}                              | score",
            "{\"score\":-1,\"selector\":\"back-catalogue\"}                 | score",
            "{\"score\":1000000001,\"selector\":\"back-catalogue\"}         | score",
            "{\"score\":1.5,\"selector\":\"back-catalogue\"}                | score",
            "{\"score\":\"5\",\"selector\":\"back-catalogue\"}              | score",
            "{\"score\":5}                                                  | selector",
            "{\"score\":5,\"selector\":7}                                   | selector",
            "{\"score\":5,\"selector\":\"\"}                                | selector",
            "{\"title\":\"\",\"score\":5,\"selector\":\"back-catalogue\"}   | title",
            "{\"title\":\"  \",\"score\":5,\"selector\":\"back-catalogue\"} | title",
            "{\"title\":5,\"score\":5,\"selector\":\"back-catalogue\"}      | title",
            "{\"score\":5,\"selector\":\"back-catalogue\",\"data\":5}       | data",
    })
    void putItem_invalidField_returns400ValidationFailedNamingIt(String body, String field) {
        var rejected = api.call("PUT", "/items/item-1", body);

        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.errorCode()).isEqualTo("validation_failed");
        assertThat(rejected.errorField()).isEqualTo(field);
        assertThat(api.call("GET", "/items/item-1").status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"back-catalogue:4", "global-cycle", "global-cycle:-1", "global-cycle:01",
            "user-cycle:1000000000", "weekly:1", "Back-Catalogue"})
    void putItem_selectorBreaksRule_returns400WithTheRule(String selector) {
        var rejected = api.call("PUT", "/items/item-1", "{\"score\":5,\"selector\":\"" + selector + "\"}");

        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.errorCode()).isEqualTo("validation_failed");
        assertThat(rejected.errorField()).isEqualTo("selector");
        assertThat(rejected.body().path("error").path("message").asText()).isEqualTo(Selectors.describeRule());
    }

    @Test
    void putItem_titleOf201Characters_returns400() {
        assertThat(api.call("PUT", "/items/t", "{\"title\":\"" + "x".repeat(200) + "\",\"score\":5,\"selector\":\"back-catalogue\"}")
                .status()).isEqualTo(201);

        var tooLong = api.call("PUT", "/items/t", "{\"title\":\"" + "x".repeat(201) + "\",\"score\":5,\"selector\":\"back-catalogue\"}");

        assertThat(tooLong.errorCode()).isEqualTo("validation_failed");
        assertThat(tooLong.errorField()).isEqualTo("title");
    }

    @Test
    void itemRoutes_badIdOrBody_returnDocumentedErrors() {
        for (String method : new String[] {"GET", "DELETE"}) {
            var badId = api.call(method, "/items/a%23b");
            assertThat(badId.status()).isEqualTo(400);
            assertThat(badId.errorCode()).isEqualTo("validation_failed");
            assertThat(badId.errorField()).isEqualTo("itemId");
        }
        var badPutId = api.call("PUT", "/items/" + "x".repeat(65), "{\"score\":5,\"selector\":\"back-catalogue\"}");
        assertThat(badPutId.errorField()).isEqualTo("itemId");
        assertThat(api.call("PUT", "/items/i", "{\"score\":").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("PUT", "/items/i", "[]").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("PUT", "/items/i").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("POST", "/items/i", "{}").status()).isEqualTo(405);
    }
}
