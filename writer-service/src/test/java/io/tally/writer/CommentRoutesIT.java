package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CommentRoutesIT {
    private static final Instant START = Instant.parse("2024-04-01T08:00:00.000Z");
    private static final String COMMENTS = "/users/u1/posts/p1/comments";

    private final TestClock clock = new TestClock(START);
    private final TestApi api = TestApi.onFreshTable(clock);

    @BeforeEach
    void userWithPostAndAuthor() {
        user("u1");
        user("a1");
        user("a2");
        var post = api.call("POST", "/users/u1/posts", "{\"postId\":\"p1\",\"title\":\"T\",\"body\":\"B\"}");
        assertThat(post.status()).isEqualTo(201);
        clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void addComment_existingPostAndAuthor_returns201WithDocumentedFields() {
        var created = comment(COMMENTS, "a1", "Nice post");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable()
                .containsExactly("commentId", "postId", "authorId", "text", "createdAt");
        assertThat(created.text("commentId")).matches("[0-9A-Z]{26}");
        assertThat(created.text("postId")).isEqualTo("p1");
        assertThat(created.text("authorId")).isEqualTo("a1");
        assertThat(created.text("text")).isEqualTo("Nice post");
        assertThat(created.text("createdAt")).isEqualTo("2024-04-01T08:00:01.000Z");
        assertThat(created.headers())
                .containsEntry("Location", "/users/u1/posts/p1/comments/" + created.text("commentId"));

        var page = list(COMMENTS);
        assertThat(page.get("items")).hasSize(1);
        assertThat(page.get("items").get(0)).isEqualTo(created.body());
    }

    @Test
    void addComment_postOwnerAsAuthor_isAllowed() {
        assertThat(comment(COMMENTS, "u1", "My own post").status()).isEqualTo(201);
    }

    @Test
    void addComment_clientChosenId_isRejected() {
        var response = api.call("POST", COMMENTS, "{\"commentId\":\"c1\",\"authorId\":\"a1\",\"text\":\"x\"}");

        assertError(response, 400, "validation_failed", "commentId");
    }

    @Test
    void addComment_unknownAuthor_returns404AndWritesNothing() {
        assertError(comment(COMMENTS, "ghost", "Hi"), 404, "not_found", null);
        assertThat(list(COMMENTS).get("items")).isEmpty();
    }

    @Test
    void addComment_unknownPostOrUnderAnotherUser_returns404() {
        assertError(comment("/users/u1/posts/nope/comments", "a1", "Hi"), 404, "not_found", null);
        assertError(comment("/users/a1/posts/p1/comments", "a1", "Hi"), 404, "not_found", null);
        assertError(comment("/users/ghost/posts/p1/comments", "a1", "Hi"), 404, "not_found", null);
        assertThat(list(COMMENTS).get("items")).isEmpty();
    }

    @Test
    void addComment_deletedPost_returns409() {
        api.call("DELETE", "/users/u1/posts/p1");

        assertError(comment(COMMENTS, "a1", "Too late"), 409, "conflict", null);
        assertThat(list(COMMENTS).get("items")).isEmpty();
    }

    @Test
    void addComment_deletedPostAndUnknownAuthor_returns404() {
        api.call("DELETE", "/users/u1/posts/p1");

        assertError(comment(COMMENTS, "ghost", "Too late"), 404, "not_found", null);
    }

    @Test
    void addComment_updatedPost_isAllowed() {
        api.call("PATCH", "/users/u1/posts/p1", "{\"title\":\"T2\"}");

        assertThat(comment(COMMENTS, "a1", "Still open").status()).isEqualTo(201);
    }

    @Test
    void addComment_badInput_returnsDocumentedErrors() {
        assertError(api.call("POST", COMMENTS, "{\"authorId\":"), 400, "bad_request", null);
        assertError(api.call("POST", COMMENTS, "\"text\""), 400, "bad_request", null);
        assertError(api.call("POST", COMMENTS, "{\"text\":\"x\"}"), 400, "validation_failed", "authorId");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":\"a#1\",\"text\":\"x\"}"), 400, "validation_failed", "authorId");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":5,\"text\":\"x\"}"), 400, "validation_failed", "authorId");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":\"a1\"}"), 400, "validation_failed", "text");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":\"a1\",\"text\":\"\"}"), 400, "validation_failed", "text");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":\"a1\",\"text\":\"" + "x".repeat(10_001) + "\"}"),
                400, "validation_failed", "text");
        assertError(api.call("POST", COMMENTS, "{\"authorId\":\"a1\",\"text\":\"x\",\"postId\":\"p1\"}"),
                400, "validation_failed", "postId");
        assertError(api.call("POST", "/users/u1/posts/p%231/comments", "{\"authorId\":\"a1\",\"text\":\"x\"}"),
                400, "validation_failed", "postId");
        assertThat(comment(COMMENTS, "a1", "x".repeat(10_000)).status()).isEqualTo(201);
        assertThat(list(COMMENTS).get("items")).hasSize(1);
    }

    @Test
    void listComments_severalComments_returnsOldestFirst() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            created.add(comment(COMMENTS, i % 2 == 0 ? "a1" : "a2", "comment " + i).text("commentId"));
            clock.advance(Duration.ofMillis(i == 1 ? 0 : 5));
        }

        var page = api.call("GET", COMMENTS);

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body().fieldNames()).toIterable().containsExactly("items", "cursor");
        assertThat(page.body().get("cursor").isNull()).isTrue();
        assertThat(ids(page.body())).isEqualTo(created);
        assertThat(texts(page.body(), "text")).containsExactly("comment 0", "comment 1", "comment 2", "comment 3");
        assertThat(page.body().get("items").get(0).fieldNames()).toIterable()
                .containsExactly("commentId", "postId", "authorId", "text", "createdAt");
    }

    @Test
    void listComments_limit2_pagesUntilCursorIsNull() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(comment(COMMENTS, "a1", "comment " + i).text("commentId"));
            clock.advance(Duration.ofMillis(1));
        }

        List<String> seen = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = list(COMMENTS + "?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            seen.addAll(ids(page));
            sizes.add(page.get("items").size());
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
        } while (cursor != null);

        assertThat(seen).isEqualTo(created);
        assertThat(sizes).containsExactly(2, 2, 1);
    }

    @Test
    void listComments_badCursorOrLimit_returns400() {
        api.call("POST", "/users/u1/posts", "{\"postId\":\"p2\",\"title\":\"T\",\"body\":\"B\"}");
        for (int i = 0; i < 3; i++) {
            comment(COMMENTS, "a1", "on p1 " + i);
            comment("/users/u1/posts/p2/comments", "a1", "on p2 " + i);
        }
        String cursor = list(COMMENTS + "?limit=1").get("cursor").asText();
        String postsCursor = list("/users/u1/posts?limit=1").get("cursor").asText();

        assertError(api.call("GET", COMMENTS + "?cursor=" + PostRoutesIT.flip(cursor, 3)), 400, "bad_request", "cursor");
        assertError(api.call("GET", COMMENTS + "?cursor=x.y"), 400, "bad_request", "cursor");
        assertError(api.call("GET", "/users/u1/posts/p2/comments?cursor=" + cursor), 400, "bad_request", "cursor");
        assertError(api.call("GET", COMMENTS + "?cursor=" + postsCursor), 400, "bad_request", "cursor");
        assertError(api.call("GET", COMMENTS + "?limit=0"), 400, "bad_request", "limit");
        assertError(api.call("GET", COMMENTS + "?limit=101"), 400, "bad_request", "limit");
        assertThat(api.call("GET", COMMENTS + "?cursor=" + cursor).status()).isEqualTo(200);
    }

    @Test
    void listComments_unknownPostOrUnderAnotherUser_returns404() {
        assertError(api.call("GET", "/users/u1/posts/nope/comments"), 404, "not_found", null);
        assertError(api.call("GET", "/users/a1/posts/p1/comments"), 404, "not_found", null);
    }

    @Test
    void listComments_deletedPost_stillListsItsComments() {
        String id = comment(COMMENTS, "a1", "before the delete").text("commentId");
        api.call("DELETE", "/users/u1/posts/p1");

        assertThat(ids(list(COMMENTS))).containsExactly(id);
    }

    @Test
    void listComments_onePost_doesNotShowCommentsOfAnother() {
        api.call("POST", "/users/u1/posts", "{\"postId\":\"p2\",\"title\":\"T\",\"body\":\"B\"}");
        String mine = comment(COMMENTS, "a1", "mine").text("commentId");
        comment("/users/u1/posts/p2/comments", "a1", "other");

        assertThat(ids(list(COMMENTS))).containsExactly(mine);
    }

    @Test
    void deleteComment_existing_returns200WithTheCommentAndDisappearsFromTheList() {
        var keep = comment(COMMENTS, "a1", "keep");
        clock.advance(Duration.ofMillis(1));
        var drop = comment(COMMENTS, "a2", "drop");
        String path = COMMENTS + "/" + drop.text("commentId");

        var deleted = api.call("DELETE", path);

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.body()).isEqualTo(drop.body());
        assertThat(deleted.body().fieldNames()).toIterable()
                .containsExactly("commentId", "postId", "authorId", "text", "createdAt");
        assertThat(ids(list(COMMENTS))).containsExactly(keep.text("commentId"));
        assertError(api.call("DELETE", path), 404, "not_found", null);
    }

    @Test
    void deleteComment_unknownCommentOrPrefixOfAnId_returns404() {
        String id = comment(COMMENTS, "a1", "keep").text("commentId");

        assertError(api.call("DELETE", COMMENTS + "/nope"), 404, "not_found", null);
        assertError(api.call("DELETE", COMMENTS + "/" + id.substring(0, id.length() - 1)), 404, "not_found", null);
        assertThat(ids(list(COMMENTS))).containsExactly(id);
    }

    @Test
    void deleteComment_unknownPostOrUnderAnotherUserOrPost_returns404() {
        api.call("POST", "/users/u1/posts", "{\"postId\":\"p2\",\"title\":\"T\",\"body\":\"B\"}");
        String id = comment(COMMENTS, "a1", "keep").text("commentId");

        assertError(api.call("DELETE", "/users/u1/posts/nope/comments/" + id), 404, "not_found", null);
        assertError(api.call("DELETE", "/users/a1/posts/p1/comments/" + id), 404, "not_found", null);
        assertError(api.call("DELETE", "/users/u1/posts/p2/comments/" + id), 404, "not_found", null);
        assertError(api.call("DELETE", COMMENTS + "/a%23b"), 400, "validation_failed", "commentId");
        assertThat(ids(list(COMMENTS))).containsExactly(id);
    }

    @Test
    void deleteComment_onDeletedPost_isAllowed() {
        String id = comment(COMMENTS, "a1", "keep").text("commentId");
        api.call("DELETE", "/users/u1/posts/p1");

        assertThat(api.call("DELETE", COMMENTS + "/" + id).status()).isEqualTo(200);
        assertThat(list(COMMENTS).get("items")).isEmpty();
    }

    private void user(String userId) {
        var response = api.call("POST", "/users",
                "{\"userId\":\"" + userId + "\",\"name\":\"User " + userId + "\",\"email\":\"" + userId + "@example.com\"}");
        assertThat(response.status()).isEqualTo(201);
    }

    private TestApi.Response comment(String path, String authorId, String text) {
        return api.call("POST", path, "{\"authorId\":\"" + authorId + "\",\"text\":\"" + text + "\"}");
    }

    private JsonNode list(String path) {
        var response = api.call("GET", path);
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(200);
        return response.body();
    }

    private static List<String> ids(JsonNode page) {
        return texts(page, "commentId");
    }

    private static List<String> texts(JsonNode page, String field) {
        List<String> values = new ArrayList<>();
        page.get("items").forEach(item -> values.add(item.get(field).asText()));
        return values;
    }

    private static void assertError(TestApi.Response response, int status, String code, String field) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
        assertThat(response.errorCode()).isEqualTo(code);
        assertThat(response.errorField()).isEqualTo(field);
    }
}
