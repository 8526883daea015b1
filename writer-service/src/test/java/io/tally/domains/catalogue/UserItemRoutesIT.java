package io.tally.domains.catalogue;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.Timestamps;
import io.tally.testkit.LocalDynamoDb;
import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class UserItemRoutesIT {
    private static final Instant START = Instant.parse("2019-01-22T10:00:00Z");
    private static final List<String> USER_ITEM_FIELDS =
            List.of("userId", "itemId", "state", "score", "progress", "correct", "live", "enteredAt", "updatedAt");

    private final TestClock clock = TestClock.stepping(START, Duration.ofSeconds(1));
    private final TestApi api = TestApi.onFreshTable(clock);
    private ExecutorService pool;

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    // ---- seed 003 --------------------------------------------------------------------------------------------

    @Test
    void seedScenario_user8790_listsEveryStateInDocumentedOrder() {
        user("user-8790");
        catalogueItem("item-3", 99, "back-catalogue");
        catalogueItem("item-34", 20, "back-catalogue");
        catalogueItem("item-45", 87, "back-catalogue");
        catalogueItem("item-55", 70, "global-cycle:5");
        catalogueItem("item-65", 80, "global-cycle:5");
        catalogueItem("item-84", 35, "user-cycle:1");
        catalogueItem("item-102", 60, "back-catalogue");

        put("user-8790", "item-34", "{\"state\":\"assigned\"}");
        var item34 = put("user-8790", "item-34", "{\"state\":\"orphaned\"}");
        put("user-8790", "item-55", "{\"state\":\"assigned\"}");
        put("user-8790", "item-55", "{\"state\":\"in-progress\",\"progress\":0.4}");
        var item55 = put("user-8790", "item-55", "{\"state\":\"completed\",\"progress\":1,\"correct\":true}");
        put("user-8790", "item-102", "{\"state\":\"in-progress\"}");
        var item102 = put("user-8790", "item-102", "{\"state\":\"completed\",\"correct\":false,\"live\":true}");
        var item84 = put("user-8790", "item-84", "{\"state\":\"assigned\"}");
        var item45 = put("user-8790", "item-45", "{\"state\":\"assigned\"}");
        var item3 = put("user-8790", "item-3", "{\"state\":\"in-progress\",\"progress\":0.87}");

        assertThat(list("user-8790", "assigned")).containsExactly(item45, item84);
        assertThat(list("user-8790", "completed")).containsExactly(item102, item55);
        assertThat(list("user-8790", "in-progress")).containsExactly(item3);
        assertThat(list("user-8790", "orphaned")).containsExactly(item34);
        assertThat(item3.get("progress").asDouble()).isEqualTo(0.87);
        assertThat(item55.get("correct").asBoolean()).isTrue();
        assertThat(item102.get("live").asBoolean()).isTrue();
        assertThat(entries("user-8790")).as("one entry per item the user has; item-65 is not the user's")
                .extracting(e -> e.get("itemId").s())
                .containsExactlyInAnyOrder("item-3", "item-34", "item-45", "item-55", "item-84", "item-102");
    }

    // ---- PUT -------------------------------------------------------------------------------------------------

    @Test
    void putUserItem_new_returns201WithFieldsInOrderAndNullOptionals() {
        user("u1");
        catalogueItem("i1", 42, "back-catalogue");
        String now = Timestamps.format(clock.peek());

        var created = api.call("PUT", "/users/u1/items/i1", "{\"state\":\"assigned\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).doesNotContainKey("Location");
        assertThat(created.body().fieldNames()).toIterable().containsExactlyElementsOf(USER_ITEM_FIELDS);
        assertThat(created.text("userId")).isEqualTo("u1");
        assertThat(created.text("itemId")).isEqualTo("i1");
        assertThat(created.text("state")).isEqualTo("assigned");
        assertThat(created.body().get("score").asLong()).isEqualTo(42);
        assertThat(created.body().get("progress").isNull()).isTrue();
        assertThat(created.body().get("correct").isNull()).isTrue();
        assertThat(created.body().get("live").isNull()).isTrue();
        assertThat(created.text("enteredAt")).as("one server timestamp per request").isEqualTo(now);
        assertThat(created.text("updatedAt")).isEqualTo(now);
    }

    @Test
    void putUserItem_existing_returns200() {
        user("u1");
        catalogueItem("i1", 42, "back-catalogue");
        put("u1", "i1", "{\"state\":\"assigned\"}");

        var again = api.call("PUT", "/users/u1/items/i1", "{\"state\":\"assigned\"}");

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().fieldNames()).toIterable().containsExactlyElementsOf(USER_ITEM_FIELDS);
    }

    @Test
    void putUserItem_sameState_keepsEnteredAtAndAbsentFields() {
        user("u1");
        catalogueItem("i1", 42, "back-catalogue");
        var first = put("u1", "i1", "{\"state\":\"in-progress\",\"progress\":0.5,\"correct\":true}");

        var second = put("u1", "i1", "{\"state\":\"in-progress\",\"progress\":0.75}");

        assertThat(second.get("enteredAt")).isEqualTo(first.get("enteredAt"));
        assertThat(Instant.parse(second.get("updatedAt").asText())).isAfter(Instant.parse(first.get("updatedAt").asText()));
        assertThat(second.get("progress").asDouble()).isEqualTo(0.75);
        assertThat(second.get("correct").asBoolean()).as("absent keeps the old value").isTrue();
        assertThat(second.get("live").isNull()).isTrue();

        var completed = put("u1", "i1", "{\"state\":\"completed\",\"live\":false}");

        assertThat(completed.get("enteredAt")).isEqualTo(completed.get("updatedAt")).isNotEqualTo(first.get("enteredAt"));
        assertThat(completed.get("progress").asDouble()).isEqualTo(0.75);
        assertThat(completed.get("correct").asBoolean()).isTrue();
        assertThat(completed.get("live").asBoolean()).isFalse();
    }

    @Test
    void putUserItem_stateChanges_leaveExactlyOneEntryMatchingTheItem() {
        user("mover");
        catalogueItem("m", 7, "back-catalogue");
        String[] journey = {"assigned", "in-progress", "in-progress", "orphaned", "orphaned", "assigned",
                "in-progress", "assigned", "completed"};

        for (String state : journey) {
            var body = put("mover", "m", "{\"state\":\"" + state + "\",\"progress\":0.1}");

            UserItem authoritative = authoritative("mover", "m");
            assertThat(authoritative.state().value()).isEqualTo(state);
            List<Map<String, AttributeValue>> entries = entries("mover");
            assertThat(entries).as("entries after moving to %s", state).hasSize(1);
            assertThat(entries.get(0).get("sk").s()).isEqualTo(authoritative.entryKey().sk());
            assertThat(UserItem.fromItem(entries.get(0))).isEqualTo(authoritative);
            assertThat(list("mover", state)).containsExactly(body);
        }
        assertThat(entries("mover").get(0).get("sk").s()).startsWith("item:completed:");
    }

    @Test
    void putUserItem_catalogueScoreChanged_movesTheAssignedEntry() {
        user("u1");
        catalogueItem("s", 10, "back-catalogue");
        var before = put("u1", "s", "{\"state\":\"assigned\"}");
        assertThat(entries("u1")).extracting(e -> e.get("sk").s()).containsExactly("item:assigned:0000000010#s");
        catalogueItem("s", 500, "back-catalogue");

        var after = put("u1", "s", "{\"state\":\"assigned\"}");

        assertThat(after.get("score").asLong()).isEqualTo(500);
        assertThat(after.get("enteredAt")).isEqualTo(before.get("enteredAt"));
        assertThat(entries("u1")).extracting(e -> e.get("sk").s()).containsExactly("item:assigned:0000000500#s");
    }

    @Test
    void putUserItem_storedWithoutVersion_isMovedAndGetsOne() {
        user("u1");
        catalogueItem("old", 5, "back-catalogue");
        UserItem loaded = new UserItem("u1", "old", ItemState.ASSIGNED, 5, null, null, null,
                Instant.parse("2018-12-25T11:15:00Z"), Instant.parse("2018-12-25T11:15:00Z"));
        LocalDynamoDb.client().putItem(p -> p.tableName(api.table()).item(loaded.toItem()));
        LocalDynamoDb.client().putItem(p -> p.tableName(api.table()).item(loaded.toEntryItem()));

        var moved = api.call("PUT", "/users/u1/items/old", "{\"state\":\"orphaned\"}");

        assertThat(moved.status()).isEqualTo(200);
        assertThat(authoritativeItem("u1", "old").get("version").n()).isEqualTo("1");
        assertThat(entries("u1")).extracting(e -> e.get("sk").s()).containsExactly(authoritative("u1", "old").entryKey().sk());
    }

    @Test
    void putUserItem_tinyProgress_isStoredAndReadBack() {
        user("u1");
        catalogueItem("i1", 1, "back-catalogue");

        var body = put("u1", "i1", "{\"state\":\"in-progress\",\"progress\":0.00001}");

        assertThat(body.get("progress").asDouble()).isEqualTo(0.00001);
        assertThat(list("u1", "in-progress").get(0).get("progress").asDouble()).isEqualTo(0.00001);
    }

    @Test
    void putUserItem_completed_isFinal409AndChangesNothing() {
        user("u1");
        catalogueItem("done", 5, "back-catalogue");
        var completed = put("u1", "done", "{\"state\":\"completed\",\"correct\":true}");
        List<Map<String, AttributeValue>> before = entries("u1");

        for (String state : new String[] {"completed", "assigned", "in-progress", "orphaned"}) {
            var rejected = api.call("PUT", "/users/u1/items/done", "{\"state\":\"" + state + "\",\"correct\":false}");
            assertThat(rejected.status()).as("PUT %s on a completed item", state).isEqualTo(409);
            assertThat(rejected.errorCode()).isEqualTo("conflict");
        }
        assertThat(entries("u1")).isEqualTo(before);
        assertThat(list("u1", "completed")).containsExactly(completed);
    }

    @Test
    void putUserItem_anotherItemInProgress_returns409AndWritesNothing() {
        user("u1");
        catalogueItem("a", 1, "back-catalogue");
        catalogueItem("b", 2, "back-catalogue");
        var a = put("u1", "a", "{\"state\":\"in-progress\"}");
        put("u1", "b", "{\"state\":\"assigned\"}");
        List<Map<String, AttributeValue>> before = entries("u1");

        var rejected = api.call("PUT", "/users/u1/items/b", "{\"state\":\"in-progress\"}");

        assertThat(rejected.status()).isEqualTo(409);
        assertThat(rejected.errorCode()).isEqualTo("conflict");
        assertThat(rejected.body().path("error").path("message").asText()).contains("'a'");
        assertThat(entries("u1")).isEqualTo(before);
        assertThat(authoritative("u1", "b").state().value()).isEqualTo("assigned");
        assertThat(list("u1", "in-progress")).containsExactly(a);

        put("u1", "a", "{\"state\":\"completed\"}");
        assertThat(api.call("PUT", "/users/u1/items/b", "{\"state\":\"in-progress\"}").status())
                .as("the slot is free once the item in progress moves on").isEqualTo(200);
    }

    @Test
    void putUserItem_unknownUser_returns404AndWritesNothing() {
        catalogueItem("i1", 1, "back-catalogue");

        var missing = api.call("PUT", "/users/ghost/items/i1", "{\"state\":\"assigned\"}");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
        assertThat(missing.body().path("error").path("message").asText()).contains("ghost");
        assertThat(userPartition("ghost")).isEmpty();
    }

    @Test
    void putUserItem_unknownCatalogueItem_returns404() {
        user("u1");

        var missing = api.call("PUT", "/users/u1/items/nothing", "{\"state\":\"assigned\"}");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
        assertThat(missing.body().path("error").path("message").asText()).contains("nothing");
        assertThat(entries("u1")).isEmpty();
    }

    @Test
    void putUserItem_catalogueItemDeleted_returns404() {
        user("u1");
        catalogueItem("i1", 1, "back-catalogue");
        put("u1", "i1", "{\"state\":\"assigned\"}");
        api.call("DELETE", "/items/i1");

        var missing = api.call("PUT", "/users/u1/items/i1", "{\"state\":\"in-progress\"}");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(authoritative("u1", "i1").state().value()).isEqualTo("assigned");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{}                                          | state",
            "{\"state\":null}                            | state",
            "{\"state\":\"done\"}                        | state",
            "{\"state\":\"IN-PROGRESS\"}                 | state",
            "{\"state\":5}                               | state",
            "{\"state\":\"\"}                            | state",
            "{\"state\":\"assigned\",\"progress\":1.5}   | progress",
            "{\"state\":\"assigned\",\"progress\":-0.1}  | progress",
            "{\"state\":\"assigned\",\"progress\":\"1\"} | progress",
            "{\"state\":\"assigned\",\"correct\":\"yes\"}| correct",
            "{\"state\":\"assigned\",\"live\":1}         | live",
            "{\"state\":\"assigned\",\"score\":1}        | score",
    })
    void putUserItem_invalidField_returns400ValidationFailedNamingIt(String body, String field) {
        user("u1");
        catalogueItem("i1", 1, "back-catalogue");

        var rejected = api.call("PUT", "/users/u1/items/i1", body);

        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.errorCode()).isEqualTo("validation_failed");
        assertThat(rejected.errorField()).isEqualTo(field);
        assertThat(entries("u1")).isEmpty();
    }

    @Test
    void putUserItem_badPathOrBody_returnsDocumentedErrors() {
        var badUser = api.call("PUT", "/users/a%23b/items/i1", "{\"state\":\"assigned\"}");
        assertThat(badUser.errorCode()).isEqualTo("validation_failed");
        assertThat(badUser.errorField()).isEqualTo("userId");
        var badItem = api.call("PUT", "/users/u1/items/a:b", "{\"state\":\"assigned\"}");
        assertThat(badItem.errorCode()).isEqualTo("validation_failed");
        assertThat(badItem.errorField()).isEqualTo("itemId");
        assertThat(api.call("PUT", "/users/u1/items/i1", "{\"state\":").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("PUT", "/users/u1/items/i1", "\"assigned\"").errorCode()).isEqualTo("bad_request");
        assertThat(api.call("PUT", "/users/u1/items/i1").errorCode()).isEqualTo("bad_request");
    }

    // ---- concurrency -----------------------------------------------------------------------------------------

    @Test
    void putUserItem_threadsRaceDifferentItemsIntoProgress_exactlyOneWins() throws Exception {
        int threads = 8;
        user("racer");
        for (int i = 0; i < threads; i++) {
            catalogueItem("r" + i, 100 + i, "back-catalogue");
            put("racer", "r" + i, "{\"state\":\"assigned\"}");
        }

        List<Integer> statuses = race(threads, i -> api.call("PUT", "/users/racer/items/r" + i,
                "{\"state\":\"in-progress\",\"progress\":0." + i + "}").status());

        assertThat(statuses).filteredOn(s -> s == 200).hasSize(1);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(threads - 1);
        String winner = "r" + statuses.indexOf(200);
        List<Map<String, AttributeValue>> entries = entries("racer");
        assertThat(entries).filteredOn(e -> e.get("sk").s().equals(CatalogueKeys.IN_PROGRESS_SK))
                .singleElement().satisfies(e -> assertThat(e.get("itemId").s()).isEqualTo(winner));
        assertThat(entries).as("the losers stay assigned").hasSize(threads)
                .filteredOn(e -> e.get("sk").s().startsWith("item:assigned:")).hasSize(threads - 1)
                .extracting(e -> e.get("itemId").s()).doesNotContain(winner);
        for (int i = 0; i < threads; i++) {
            assertThat(authoritative("racer", "r" + i).state().value())
                    .isEqualTo(("r" + i).equals(winner) ? "in-progress" : "assigned");
        }
    }

    @Test
    void putUserItem_threadsRaceNewItemsIntoProgress_exactlyOneCreated() throws Exception {
        int threads = 8;
        user("racer");
        for (int i = 0; i < threads; i++) {
            catalogueItem("n" + i, i, "back-catalogue");
        }

        List<Integer> statuses = race(threads, i -> api.call("PUT", "/users/racer/items/n" + i,
                "{\"state\":\"in-progress\"}").status());

        assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(threads - 1);
        assertThat(userPartition("racer")).as("user, one authoritative item, one entry").hasSize(3);
        assertThat(entries("racer")).singleElement()
                .satisfies(e -> assertThat(e.get("sk").s()).isEqualTo(CatalogueKeys.IN_PROGRESS_SK))
                .satisfies(e -> assertThat(e.get("itemId").s()).isEqualTo("n" + statuses.indexOf(201)));
    }

    @Test
    void putUserItem_threadsRaceOnSameItem_endConsistent() throws Exception {
        String[] states = {"assigned", "in-progress", "orphaned", "completed", "in-progress", "assigned",
                "orphaned", "in-progress"};
        user("same");
        for (int round = 0; round < 3; round++) {
            String itemId = "s" + round;
            catalogueItem(itemId, 10 + round, "back-catalogue");
            put("same", itemId, "{\"state\":\"assigned\"}");

            List<Integer> statuses = race(states.length, i -> api.call("PUT", "/users/same/items/" + itemId,
                    "{\"state\":\"" + states[i] + "\",\"progress\":0." + i + "}").status());

            // 409 only once the completed write won; 503 when a request lost every attempt to other writers.
            assertThat(statuses).allMatch(s -> s == 200 || s == 409 || s == 503).contains(200);
            Map<String, AttributeValue> stored = authoritativeItem("same", itemId);
            long successes = statuses.stream().filter(s -> s == 200).count();
            assertThat(Long.parseLong(stored.get("version").n()))
                    .as("every 200 is one serialized write on top of the first one").isEqualTo(1 + successes);
            UserItem authoritative = UserItem.fromItem(stored);
            if (statuses.contains(409)) {
                assertThat(authoritative.state().value()).isEqualTo("completed");
                assertThat(statuses.get(3)).isEqualTo(200);
            }
            List<Map<String, AttributeValue>> entries = entries("same").stream()
                    .filter(e -> e.get("itemId").s().equals(itemId)).toList();
            assertThat(entries).as("entries of %s after %s", itemId, statuses).singleElement()
                    .satisfies(e -> assertThat(e.get("sk").s()).isEqualTo(authoritative.entryKey().sk()))
                    .satisfies(e -> assertThat(UserItem.fromItem(e)).isEqualTo(authoritative));
            if (authoritative.state().value().equals("in-progress")) {
                // Free the slot for the next round, unless the item completed.
                put("same", itemId, "{\"state\":\"orphaned\"}");
            }
        }
    }

    // ---- GET list --------------------------------------------------------------------------------------------

    @Test
    void listUserItems_limit2_pagesUntilCursorNull() {
        user("pager");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            catalogueItem("p" + i, 1000 - i * 100, "back-catalogue");
            put("pager", "p" + i, "{\"state\":\"assigned\"}");
            expected.add("p" + i);
        }
        for (int i = 0; i < 4; i++) {
            catalogueItem("c" + i, 1, "back-catalogue");
            put("pager", "c" + i, "{\"state\":\"completed\"}");
        }

        assertThat(pageThrough("pager", "assigned", 2)).containsExactlyElementsOf(expected);
        assertThat(pageThrough("pager", "completed", 2)).containsExactly("c3", "c2", "c1", "c0");
        assertThat(pageThrough("pager", "orphaned", 2)).isEmpty();
    }

    @Test
    void listUserItems_response_hasItemsThenCursor() {
        user("u1");

        var empty = api.call("GET", "/users/u1/items?state=assigned");

        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.body().fieldNames()).toIterable().containsExactly("items", "cursor");
        assertThat(empty.body().get("items").isArray()).isTrue();
        assertThat(empty.body().get("items")).isEmpty();
        assertThat(empty.body().get("cursor").isNull()).isTrue();
    }

    @Test
    void listUserItems_inProgressNone_returnsEmptyList() {
        user("u1");

        assertThat(list("u1", "in-progress")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "?state=", "?state=done", "?state=Assigned", "?limit=2"})
    void listUserItems_missingOrBadState_returns400NamingState(String query) {
        user("u1");

        var rejected = api.call("GET", "/users/u1/items" + query);

        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.errorCode()).isEqualTo("bad_request");
        assertThat(rejected.errorField()).isEqualTo("state");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "101", "x", "-1"})
    void listUserItems_badLimit_returns400NamingLimit(String limit) {
        user("u1");

        var rejected = api.call("GET", "/users/u1/items?state=assigned&limit=" + limit);

        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.errorCode()).isEqualTo("bad_request");
        assertThat(rejected.errorField()).isEqualTo("limit");
    }

    @Test
    void listUserItems_badCursor_returns400NamingCursor() {
        user("u1");
        user("u2");
        for (int i = 0; i < 3; i++) {
            catalogueItem("i" + i, i, "back-catalogue");
            put("u1", "i" + i, "{\"state\":\"assigned\"}");
            put("u2", "i" + i, "{\"state\":\"assigned\"}");
        }
        String cursor = api.call("GET", "/users/u1/items?state=assigned&limit=1").text("cursor");
        assertThat(cursor).isNotNull();
        assertThat(api.call("GET", "/users/u1/items?state=assigned&limit=1&cursor=" + encode(cursor)).status())
                .isEqualTo(200);

        for (String path : new String[] {
                "/users/u1/items?state=assigned&cursor=garbage",
                "/users/u1/items?state=assigned&cursor=" + encode(cursor.substring(0, cursor.length() - 2)),
                "/users/u1/items?state=assigned&cursor=" + encode("x" + cursor),
                "/users/u1/items?state=completed&cursor=" + encode(cursor),
                "/users/u2/items?state=assigned&cursor=" + encode(cursor)}) {
            var rejected = api.call("GET", path);
            assertThat(rejected.status()).as(path).isEqualTo(400);
            assertThat(rejected.errorCode()).isEqualTo("bad_request");
            assertThat(rejected.errorField()).isEqualTo("cursor");
        }
    }

    @Test
    void listUserItems_unknownUser_returns404() {
        var missing = api.call("GET", "/users/ghost/items?state=assigned");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
        assertThat(api.call("GET", "/users/a%23b/items?state=assigned").errorField()).isEqualTo("userId");
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private void user(String userId) {
        var created = api.call("POST", "/users", "{\"userId\":\"" + userId + "\",\"name\":\"N\",\"email\":\"n@example.com\"}");
        assertThat(created.status()).isEqualTo(201);
    }

    private void catalogueItem(String itemId, long score, String selector) {
        var put = api.call("PUT", "/items/" + itemId, "{\"score\":" + score + ",\"selector\":\"" + selector + "\"}");
        assertThat(put.status()).isIn(200, 201);
    }

    private JsonNode put(String userId, String itemId, String body) {
        var response = api.call("PUT", "/users/" + userId + "/items/" + itemId, body);
        assertThat(response.status()).as("PUT %s %s: %s", itemId, body, response.body()).isIn(200, 201);
        return response.body();
    }

    private List<JsonNode> list(String userId, String state) {
        var response = api.call("GET", "/users/" + userId + "/items?state=" + state);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().get("cursor").isNull()).isTrue();
        List<JsonNode> items = new ArrayList<>();
        response.body().get("items").forEach(items::add);
        return items;
    }

    private List<String> pageThrough(String userId, String state, int limit) {
        List<String> itemIds = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String path = "/users/" + userId + "/items?state=" + state + "&limit=" + limit
                    + (cursor == null ? "" : "&cursor=" + encode(cursor));
            var page = api.call("GET", path);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body().get("items").size()).isLessThanOrEqualTo(limit);
            page.body().get("items").forEach(item -> itemIds.add(item.get("itemId").asText()));
            cursor = page.text("cursor");
            assertThat(++pages).as("pages").isLessThan(10);
        } while (cursor != null);
        return itemIds;
    }

    private <T> List<T> race(int threads, RaceCall<T> call) throws Exception {
        pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Callable<T> task = () -> {
                start.await();
                return call.run(index);
            };
            futures.add(pool.submit(task));
        }
        start.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(60, TimeUnit.SECONDS));
        }
        return results;
    }

    @FunctionalInterface
    private interface RaceCall<T> {
        T run(int index);
    }

    private List<Map<String, AttributeValue>> entries(String userId) {
        return LocalDynamoDb.client().query(q -> q.tableName(api.table())
                .keyConditionExpression("pk = :pk AND begins_with(sk, :entry)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS(Users.pk(userId)),
                        ":entry", AttributeValue.fromS(CatalogueKeys.ENTRY_PREFIX)))
                .consistentRead(true)).items();
    }

    private List<Map<String, AttributeValue>> userPartition(String userId) {
        return LocalDynamoDb.client().query(q -> q.tableName(api.table())
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(Users.pk(userId))))
                .consistentRead(true)).items();
    }

    private Map<String, AttributeValue> authoritativeItem(String userId, String itemId) {
        return LocalDynamoDb.client().getItem(g -> g.tableName(api.table())
                .key(CatalogueKeys.userItem(userId, itemId).toAttributeMap())
                .consistentRead(true)).item();
    }

    private UserItem authoritative(String userId, String itemId) {
        return UserItem.fromItem(authoritativeItem(userId, itemId));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
