package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PostRoutesIT {
    private static final Instant START = Instant.parse("2024-03-01T08:00:00.000Z");

    private final TestClock clock = new TestClock(START);
    private final TestApi api = TestApi.onFreshTable(clock);
    private ExecutorService executor;

    @AfterEach
    void stopExecutor() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Test
    void createPost_withId_returns201WithDocumentedFieldsAndReadsBack() {
        user("u1");
        clock.set(Instant.parse("2024-03-01T09:15:30.250Z"));

        var created = api.call("POST", "/users/u1/posts", "{\"postId\":\"p-1\",\"title\":\"Hello\",\"body\":\"First post\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable()
                .containsExactly("postId", "userId", "title", "body", "status", "createdAt", "updatedAt", "version");
        assertThat(created.text("postId")).isEqualTo("p-1");
        assertThat(created.text("userId")).isEqualTo("u1");
        assertThat(created.text("title")).isEqualTo("Hello");
        assertThat(created.text("body")).isEqualTo("First post");
        assertThat(created.text("status")).isEqualTo("created");
        assertThat(created.text("createdAt")).isEqualTo("2024-03-01T09:15:30.250Z");
        assertThat(created.text("updatedAt")).isEqualTo("2024-03-01T09:15:30.250Z");
        assertThat(created.body().get("version").isIntegralNumber()).isTrue();
        assertThat(created.body().get("version").asLong()).isEqualTo(1);
        assertThat(created.headers()).containsEntry("Location", "/users/u1/posts/p-1").containsEntry("ETag", "\"1\"");

        var read = api.call("GET", "/users/u1/posts/p-1");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(created.body());
        assertThat(read.body().fieldNames()).toIterable()
                .containsExactly("postId", "userId", "title", "body", "status", "createdAt", "updatedAt", "version");
        assertThat(read.headers()).containsEntry("ETag", "\"1\"");
    }

    @Test
    void createPost_withoutId_generatesTimeOrderedIds() {
        user("u1");
        var first = post("u1", null, "A");
        clock.advance(Duration.ofMillis(1));
        var second = post("u1", null, "B");

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text("postId")).matches("[0-9A-Z]{26}");
        assertThat(second.text("postId")).isGreaterThan(first.text("postId"));
        assertThat(first.headers()).containsEntry("Location", "/users/u1/posts/" + first.text("postId"));
        assertThat(api.call("GET", "/users/u1/posts/" + first.text("postId")).status()).isEqualTo(200);
    }

    @Test
    void createPost_unknownUser_returns404AndReservesNothing() {
        var missing = post("ghost", "p1", "A");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("not_found");
        user("u1");
        assertThat(post("u1", "p1", "A").status()).isEqualTo(201);
    }

    @Test
    void createPost_existingIdOfSameUser_returns409AndKeepsTheFirst() {
        user("u1");
        post("u1", "p1", "First");

        var again = post("u1", "p1", "Second");

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("conflict");
        assertThat(api.call("GET", "/users/u1/posts/p1").text("title")).isEqualTo("First");
    }

    @Test
    void createPost_idOfAnotherUsersPost_returns409() {
        user("u1");
        user("u2");
        post("u1", "p1", "First");

        var taken = post("u2", "p1", "Second");

        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.errorCode()).isEqualTo("conflict");
        assertThat(api.call("GET", "/users/u2/posts/p1").status()).isEqualTo(404);
        assertThat(list("/users/u2/posts").path("items")).isEmpty();
    }

    @Test
    void createPost_unknownUserAndTakenId_returns404() {
        user("u1");
        post("u1", "p1", "First");

        assertThat(post("ghost", "p1", "Second").status()).isEqualTo(404);
    }

    @Test
    void createPost_sameIdFromParallelRequests_exactlyOneSucceedsAndTheRest409() throws Exception {
        user("u1");
        user("u2");
        int threads = 8;
        executor = Executors.newFixedThreadPool(threads);
        for (int round = 0; round < 5; round++) {
            String postId = "race-" + round;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<TestApi.Response>> calls = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String userId = i % 2 == 0 ? "u1" : "u2";
                String title = "attempt " + i;
                calls.add(executor.submit(() -> {
                    start.await();
                    return post(userId, postId, title);
                }));
            }
            start.countDown();
            List<TestApi.Response> responses = new ArrayList<>();
            for (Future<TestApi.Response> call : calls) {
                responses.add(call.get(30, TimeUnit.SECONDS));
            }

            assertThat(responses).filteredOn(r -> r.status() == 201).hasSize(1);
            assertThat(responses).filteredOn(r -> r.status() == 409).hasSize(threads - 1);
            TestApi.Response winner = responses.stream().filter(r -> r.status() == 201).findFirst().orElseThrow();
            String owner = winner.text("userId");
            assertThat(api.call("GET", "/users/" + owner + "/posts/" + postId).body()).isEqualTo(winner.body());
            String other = owner.equals("u1") ? "u2" : "u1";
            assertThat(api.call("GET", "/users/" + other + "/posts/" + postId).status()).isEqualTo(404);
        }
    }

    @Test
    void createPost_badInput_returnsDocumentedErrors() {
        user("u1");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":"), 400, "bad_request", null);
        assertError(api.call("POST", "/users/u1/posts", "[]"), 400, "bad_request", null);
        assertError(api.call("POST", "/users/u1/posts", null), 400, "bad_request", null);
        assertError(api.call("POST", "/users/u1/posts", "{\"body\":\"b\"}"), 400, "validation_failed", "title");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"t\"}"), 400, "validation_failed", "body");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"\",\"body\":\"b\"}"),
                400, "validation_failed", "title");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"   \",\"body\":\"b\"}"),
                400, "validation_failed", "title");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"" + "x".repeat(201) + "\",\"body\":\"b\"}"),
                400, "validation_failed", "title");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"t\",\"body\":\"" + "x".repeat(10_001) + "\"}"),
                400, "validation_failed", "body");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":7,\"body\":\"b\"}"), 400, "validation_failed", "title");
        assertError(api.call("POST", "/users/u1/posts", "{\"postId\":\"a#b\",\"title\":\"t\",\"body\":\"b\"}"),
                400, "validation_failed", "postId");
        assertError(api.call("POST", "/users/u1/posts", "{\"title\":\"t\",\"body\":\"b\",\"status\":\"deleted\"}"),
                400, "validation_failed", "status");
        assertError(api.call("POST", "/users/a%23b/posts", "{\"title\":\"t\",\"body\":\"b\"}"),
                400, "validation_failed", "userId");
        assertThat(list("/users/u1/posts").path("items")).isEmpty();
    }

    @Test
    void createPost_longestTitleAndBody_areAccepted() {
        user("u1");
        var created = api.call("POST", "/users/u1/posts",
                "{\"title\":\"" + "t".repeat(200) + "\",\"body\":\"" + "b".repeat(10_000) + "\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("body")).hasSize(10_000);
    }

    @Test
    void getPost_unknownOrUnderAnotherUser_returns404() {
        user("u1");
        user("u2");
        post("u1", "p1", "A");

        assertError(api.call("GET", "/users/u1/posts/nope"), 404, "not_found", null);
        assertError(api.call("GET", "/users/u2/posts/p1"), 404, "not_found", null);
        assertError(api.call("GET", "/users/ghost/posts/p1"), 404, "not_found", null);
        assertError(api.call("GET", "/users/u1/posts/a%23b"), 400, "validation_failed", "postId");
    }

    @Test
    void patchPost_title_marksUpdatedBumpsVersionAndKeepsBody() {
        user("u1");
        post("u1", "p1", "Old");
        clock.set(Instant.parse("2024-03-02T12:00:00.500Z"));

        var patched = api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"New\"}", Map.of("If-Match", "\"1\""));

        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.body().fieldNames()).toIterable()
                .containsExactly("postId", "userId", "title", "body", "status", "createdAt", "updatedAt", "version");
        assertThat(patched.text("title")).isEqualTo("New");
        assertThat(patched.text("body")).isEqualTo("Body of Old");
        assertThat(patched.text("status")).isEqualTo("updated");
        assertThat(patched.text("createdAt")).isEqualTo("2024-03-01T08:00:00.000Z");
        assertThat(patched.text("updatedAt")).isEqualTo("2024-03-02T12:00:00.500Z");
        assertThat(patched.body().get("version").asLong()).isEqualTo(2);
        assertThat(patched.headers()).containsEntry("ETag", "\"2\"");
        assertThat(api.call("GET", "/users/u1/posts/p1").body()).isEqualTo(patched.body());
    }

    @Test
    void patchPost_bodyWithoutIfMatchOrWithStar_updatesAnyVersion() {
        user("u1");
        post("u1", "p1", "T");

        var first = api.call("PATCH", "/users/u1/posts/p1", "{\"body\":\"one\"}");
        var second = api.call("PATCH", "/users/u1/posts/p1", "{\"body\":\"two\"}", Map.of("If-Match", "*"));

        assertThat(first.status()).isEqualTo(200);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.text("body")).isEqualTo("two");
        assertThat(second.text("title")).isEqualTo("T");
        assertThat(second.body().get("version").asLong()).isEqualTo(3);
    }

    @Test
    void patchPost_staleIfMatch_returns412AndChangesNothing() {
        user("u1");
        post("u1", "p1", "A");
        api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"B\"}");

        var stale = api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"C\"}", Map.of("If-Match", "\"1\""));
        var garbage = api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"C\"}", Map.of("If-Match", "\"abc\""));

        assertError(stale, 412, "precondition_failed", "If-Match");
        assertError(garbage, 412, "precondition_failed", "If-Match");
        var read = api.call("GET", "/users/u1/posts/p1");
        assertThat(read.text("title")).isEqualTo("B");
        assertThat(read.body().get("version").asLong()).isEqualTo(2);
    }

    @Test
    void patchPost_deleted_returns409EvenWithStaleIfMatch() {
        user("u1");
        post("u1", "p1", "A");
        api.call("DELETE", "/users/u1/posts/p1");

        assertError(api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"B\"}"), 409, "conflict", null);
        assertError(api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"B\"}", Map.of("If-Match", "1")),
                409, "conflict", null);
        var read = api.call("GET", "/users/u1/posts/p1");
        assertThat(read.text("status")).isEqualTo("deleted");
        assertThat(read.text("title")).isEqualTo("A");
    }

    @Test
    void patchPost_unknownOrUnderAnotherUser_returns404() {
        user("u1");
        user("u2");
        post("u1", "p1", "A");

        assertError(api.call("PATCH", "/users/u1/posts/nope", "{\"title\":\"B\"}"), 404, "not_found", null);
        assertError(api.call("PATCH", "/users/u2/posts/p1", "{\"title\":\"B\"}"), 404, "not_found", null);
        assertThat(api.call("GET", "/users/u1/posts/p1").text("title")).isEqualTo("A");
    }

    @Test
    void patchPost_badInput_returnsDocumentedErrors() {
        user("u1");
        post("u1", "p1", "A");

        var nothing = api.call("PATCH", "/users/u1/posts/p1", "{}");
        assertThat(nothing.status()).isEqualTo(400);
        assertThat(nothing.errorCode()).isEqualTo("validation_failed");
        assertError(api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"" + "x".repeat(201) + "\"}"),
                400, "validation_failed", "title");
        assertError(api.call("PATCH", "/users/u1/posts/p1", "{\"body\":\"\"}"), 400, "validation_failed", "body");
        assertError(api.call("PATCH", "/users/u1/posts/p1", "{\"postId\":\"p2\"}"), 400, "validation_failed", "postId");
        assertError(api.call("PATCH", "/users/u1/posts/p1", "not json"), 400, "bad_request", null);
        assertThat(api.call("GET", "/users/u1/posts/p1").body().get("version").asLong()).isEqualTo(1);
    }

    @Test
    void deletePost_existing_softDeletesAndStaysReadable() {
        user("u1");
        post("u1", "p1", "A");
        clock.set(Instant.parse("2024-03-05T00:00:00.001Z"));

        var deleted = api.call("DELETE", "/users/u1/posts/p1", null, Map.of("If-Match", "\"1\""));

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.body().fieldNames()).toIterable()
                .containsExactly("postId", "userId", "title", "body", "status", "createdAt", "updatedAt", "version");
        assertThat(deleted.text("status")).isEqualTo("deleted");
        assertThat(deleted.text("title")).isEqualTo("A");
        assertThat(deleted.text("updatedAt")).isEqualTo("2024-03-05T00:00:00.001Z");
        assertThat(deleted.body().get("version").asLong()).isEqualTo(2);
        assertThat(deleted.headers()).containsEntry("ETag", "\"2\"");
        var read = api.call("GET", "/users/u1/posts/p1");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(deleted.body());
    }

    @Test
    void deletePost_alreadyDeleted_returns200WithTheCurrentPostAndWritesNothing() {
        user("u1");
        post("u1", "p1", "A");
        var first = api.call("DELETE", "/users/u1/posts/p1");
        clock.advance(Duration.ofMinutes(5));

        var again = api.call("DELETE", "/users/u1/posts/p1");
        var retried = api.call("DELETE", "/users/u1/posts/p1", null, Map.of("If-Match", "\"1\""));

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.body()).isEqualTo(first.body());
        assertThat(api.call("GET", "/users/u1/posts/p1").body()).isEqualTo(first.body());
    }

    @Test
    void deletePost_staleIfMatch_returns412AndKeepsThePost() {
        user("u1");
        post("u1", "p1", "A");
        api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"B\"}");

        assertError(api.call("DELETE", "/users/u1/posts/p1", null, Map.of("If-Match", "1")),
                412, "precondition_failed", "If-Match");
        assertThat(api.call("GET", "/users/u1/posts/p1").text("status")).isEqualTo("updated");
    }

    @Test
    void deletePost_unknownOrUnderAnotherUser_returns404() {
        user("u1");
        user("u2");
        post("u1", "p1", "A");

        assertError(api.call("DELETE", "/users/u1/posts/nope"), 404, "not_found", null);
        assertError(api.call("DELETE", "/users/u2/posts/p1"), 404, "not_found", null);
        assertThat(api.call("GET", "/users/u1/posts/p1").text("status")).isEqualTo("created");
    }

    @Test
    void listPosts_clientIdsNotInTimeOrder_returnsNewestFirstWithAllStatuses() {
        user("u1");
        user("u2");
        post("u1", "zeta", "oldest");
        clock.advance(Duration.ofSeconds(1));
        post("u1", "alpha", "middle");
        clock.advance(Duration.ofSeconds(1));
        post("u2", "other", "not mine");
        post("u1", "mu", "newest");
        api.call("DELETE", "/users/u1/posts/alpha");
        api.call("PATCH", "/users/u1/posts/zeta", "{\"body\":\"edited\"}");

        var page = api.call("GET", "/users/u1/posts");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body().fieldNames()).toIterable().containsExactly("items", "cursor");
        assertThat(page.body().get("cursor").isNull()).isTrue();
        assertThat(ids(page.body())).containsExactly("mu", "alpha", "zeta");
        assertThat(texts(page.body(), "status")).containsExactly("created", "deleted", "updated");
        assertThat(page.body().get("items").get(0).fieldNames()).toIterable()
                .containsExactly("postId", "userId", "title", "body", "status", "createdAt", "updatedAt", "version");
        assertThat(page.body().get("items").get(0)).isEqualTo(api.call("GET", "/users/u1/posts/mu").body());
    }

    @Test
    void listPosts_sameCreationTime_areOrderedByIdDescending() {
        user("u1");
        post("u1", "b", "B");
        post("u1", "c", "C");
        post("u1", "a", "A");

        assertThat(ids(list("/users/u1/posts"))).containsExactly("c", "b", "a");
    }

    @Test
    void listPosts_limit2_pagesUntilCursorIsNullWithoutAnEmptyPage() {
        user("u1");
        List<String> created = new ArrayList<>();
        for (String id : List.of("e", "a", "d", "b", "c")) {
            post("u1", id, "post " + id);
            created.add(0, id);
            clock.advance(Duration.ofMillis(10));
        }

        List<String> seen = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            var page = api.call("GET", "/users/u1/posts?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).isEqualTo(200);
            seen.addAll(ids(page.body()));
            sizes.add(page.body().get("items").size());
            cursor = page.body().get("cursor").isNull() ? null : page.text("cursor");
        } while (cursor != null);

        assertThat(seen).isEqualTo(created);
        assertThat(sizes).containsExactly(2, 2, 1);
    }

    @Test
    void listPosts_exactMultipleOfLimit_lastFullPageHasNullCursor() {
        user("u1");
        for (String id : List.of("p1", "p2", "p3", "p4")) {
            post("u1", id, id);
            clock.advance(Duration.ofMillis(1));
        }

        var first = list("/users/u1/posts?limit=2");
        var second = list("/users/u1/posts?limit=2&cursor=" + first.get("cursor").asText());

        assertThat(ids(first)).containsExactly("p4", "p3");
        assertThat(ids(second)).containsExactly("p2", "p1");
        assertThat(second.get("cursor").isNull()).isTrue();
    }

    @Test
    void listPosts_userWithoutPosts_returnsEmptyPage() {
        user("u1");

        var page = list("/users/u1/posts");

        assertThat(page.get("items")).isEmpty();
        assertThat(page.get("cursor").isNull()).isTrue();
    }

    @Test
    void listPosts_unknownUser_returns404() {
        assertError(api.call("GET", "/users/ghost/posts"), 404, "not_found", null);
        assertError(api.call("GET", "/users/a%23b/posts"), 400, "validation_failed", "userId");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "101", "-1", "abc", "2.5", ""})
    void listPosts_badLimit_returns400NamingLimit(String limit) {
        user("u1");

        assertError(api.call("GET", "/users/u1/posts?limit=" + limit), 400, "bad_request", "limit");
    }

    @Test
    void listPosts_limitBounds_areAccepted() {
        user("u1");
        post("u1", "p1", "A");

        assertThat(api.call("GET", "/users/u1/posts?limit=1").status()).isEqualTo(200);
        assertThat(api.call("GET", "/users/u1/posts?limit=100").status()).isEqualTo(200);
    }

    @Test
    void listPosts_corruptedCursor_returns400NamingCursor() {
        user("u1");
        for (String id : List.of("p1", "p2", "p3")) {
            post("u1", id, id);
        }
        String cursor = list("/users/u1/posts?limit=1").get("cursor").asText();
        String flipped = flip(cursor, 3);

        assertError(api.call("GET", "/users/u1/posts?cursor=" + flipped), 400, "bad_request", "cursor");
        assertError(api.call("GET", "/users/u1/posts?cursor=garbage"), 400, "bad_request", "cursor");
        assertError(api.call("GET", "/users/u1/posts?cursor=" + cursor.substring(1)), 400, "bad_request", "cursor");
        assertError(api.call("GET", "/users/u1/posts?cursor="), 400, "bad_request", "cursor");
        assertThat(api.call("GET", "/users/u1/posts?cursor=" + cursor).status()).isEqualTo(200);
    }

    @Test
    void listPosts_cursorOfAnotherUsersList_returns400() {
        user("u1");
        user("u2");
        for (String id : List.of("a1", "a2", "a3")) {
            post("u1", id, id);
        }
        post("u2", "b1", "b1");
        String cursor = list("/users/u1/posts?limit=1").get("cursor").asText();

        assertError(api.call("GET", "/users/u2/posts?limit=1&cursor=" + cursor), 400, "bad_request", "cursor");
    }

    private void user(String userId) {
        var response = api.call("POST", "/users",
                "{\"userId\":\"" + userId + "\",\"name\":\"User " + userId + "\",\"email\":\"" + userId + "@example.com\"}");
        assertThat(response.status()).isEqualTo(201);
    }

    private TestApi.Response post(String userId, String postId, String title) {
        String id = postId == null ? "" : "\"postId\":\"" + postId + "\",";
        return api.call("POST", "/users/" + userId + "/posts",
                "{" + id + "\"title\":\"" + title + "\",\"body\":\"Body of " + title + "\"}");
    }

    private JsonNode list(String path) {
        var response = api.call("GET", path);
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    private static List<String> ids(JsonNode page) {
        return texts(page, "postId");
    }

    private static List<String> texts(JsonNode page, String field) {
        List<String> values = new ArrayList<>();
        page.get("items").forEach(item -> values.add(item.get(field).asText()));
        return values;
    }

    /** Changes one character of the cursor's payload, which its signature then no longer covers. */
    static String flip(String cursor, int index) {
        char c = cursor.charAt(index);
        return cursor.substring(0, index) + (c == 'A' ? 'B' : 'A') + cursor.substring(index + 1);
    }

    private static void assertError(TestApi.Response response, int status, String code, String field) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
        assertThat(response.errorCode()).isEqualTo(code);
        assertThat(response.errorField()).isEqualTo(field);
        assertThat(response.body().fieldNames()).toIterable().containsExactly("error");
    }
}
