package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.stream.rebuild.VerificationReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole local pipeline in this JVM: writes over HTTP, the stream poller invoking the stream handler, derived
 * data read back over HTTP, checked against expected figures and against the rebuild oracle.
 */
class PipelineIT {
    private static LocalRunner runner;
    private static Api api;

    @BeforeAll
    static void startAndWrite() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());

        api.ok("POST", "/users", "{\"userId\":\"alice\",\"name\":\"Alice\",\"email\":\"alice@example.com\"}");
        api.ok("POST", "/users", "{\"userId\":\"bob\",\"name\":\"Bob\",\"email\":\"bob@example.com\"}");
        api.ok("POST", "/users", "{\"userId\":\"carol\",\"name\":\"Carol\",\"email\":\"carol@example.com\"}");
        api.ok("PATCH", "/users/carol", "{\"name\":\"Carol C.\"}");

        api.ok("POST", "/users/alice/posts", "{\"postId\":\"p1\",\"title\":\"One\",\"body\":\"first\"}");
        api.ok("POST", "/users/alice/posts", "{\"postId\":\"p2\",\"title\":\"Two\",\"body\":\"second\"}");
        api.ok("POST", "/users/alice/posts", "{\"postId\":\"p3\",\"title\":\"Three\",\"body\":\"third\"}");
        api.ok("POST", "/users/bob/posts", "{\"postId\":\"p4\",\"title\":\"Four\",\"body\":\"fourth\"}");
        api.ok("PATCH", "/users/alice/posts/p2", "{\"title\":\"Two, edited\"}");
        api.ok("DELETE", "/users/alice/posts/p3", null);

        String gone = api.ok("POST", "/users/alice/posts/p1/comments", "{\"authorId\":\"bob\",\"text\":\"a\"}")
                .path("commentId").asText();
        api.ok("POST", "/users/alice/posts/p1/comments", "{\"authorId\":\"bob\",\"text\":\"b\"}");
        api.ok("POST", "/users/alice/posts/p1/comments", "{\"authorId\":\"carol\",\"text\":\"c\"}");
        api.ok("POST", "/users/bob/posts/p4/comments", "{\"authorId\":\"alice\",\"text\":\"d\"}");
        api.ok("DELETE", "/users/alice/posts/p1/comments/" + gone, null);

        api.ok("PUT", "/items/i1", "{\"title\":\"Item one\",\"score\":10,\"selector\":\"back-catalogue\"}");
        api.ok("PUT", "/items/i2", "{\"title\":\"Item two\",\"score\":20,\"selector\":\"back-catalogue\"}");
        api.ok("PUT", "/items/i3", "{\"title\":\"Item three\",\"score\":5,\"selector\":\"global-cycle:1\"}");
        api.ok("PUT", "/items/i4", "{\"title\":\"Item four\",\"score\":7,\"selector\":\"back-catalogue\"}");
        api.ok("DELETE", "/items/i4", null);

        api.ok("PUT", "/users/alice/items/i1", "{\"state\":\"completed\",\"correct\":true,\"live\":true}");
        api.ok("PUT", "/users/alice/items/i2", "{\"state\":\"assigned\"}");
        api.ok("PUT", "/users/alice/items/i3", "{\"state\":\"in-progress\",\"progress\":0.5}");
        api.ok("PUT", "/users/bob/items/i1", "{\"state\":\"assigned\"}");
        api.ok("PUT", "/users/bob/items/i1", "{\"state\":\"orphaned\"}");
        api.ok("PUT", "/users/carol/items/i2", "{\"state\":\"completed\"}");

        runner.awaitDrained(Api.DRAIN_TIMEOUT);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void userStatsCountTheUsersPostsCommentsAndItems() {
        JsonNode alice = api.get("/stats/users/alice");
        assertThat(alice.path("userId").asText()).isEqualTo("alice");
        assertThat(alice.path("posts").asLong()).as("p1, p2; p3 is deleted").isEqualTo(2);
        assertThat(alice.path("comments").asLong()).isEqualTo(1);
        assertThat(alice.path("completed").asLong()).isEqualTo(1);
        assertThat(alice.path("correctGuesses").asLong()).isEqualTo(1);
        assertThat(alice.path("liveCompleted").asLong()).isEqualTo(1);
        assertThat(alice.path("assigned").asLong()).isEqualTo(1);
        assertThat(alice.path("inProgress").asLong()).isEqualTo(1);
        assertThat(alice.path("orphaned").asLong()).isZero();

        JsonNode bob = api.get("/stats/users/bob");
        assertThat(bob.path("posts").asLong()).isEqualTo(1);
        assertThat(bob.path("comments").asLong()).as("two written, one deleted").isEqualTo(1);
        assertThat(bob.path("assigned").asLong()).isZero();
        assertThat(bob.path("orphaned").asLong()).isEqualTo(1);

        JsonNode carol = api.get("/stats/users/carol");
        assertThat(carol.path("posts").asLong()).isZero();
        assertThat(carol.path("comments").asLong()).isEqualTo(1);
        assertThat(carol.path("completed").asLong()).isEqualTo(1);
        assertThat(carol.path("correctGuesses").asLong()).isZero();

        assertThat(api.call("GET", "/stats/users/nobody", null).status()).isEqualTo(404);
    }

    @Test
    void postStatsCountExistingComments() {
        assertThat(api.get("/stats/posts/p1").path("comments").asLong()).isEqualTo(2);
        assertThat(api.get("/stats/posts/p4").path("comments").asLong()).isEqualTo(1);
        assertThat(api.get("/stats/posts/p2").path("comments").asLong()).isZero();
    }

    @Test
    void globalStatsCountEverything() {
        JsonNode global = api.get("/stats/global");
        assertThat(global.path("users").asLong()).isEqualTo(3);
        assertThat(global.path("posts").path("created").asLong()).isEqualTo(2);
        assertThat(global.path("posts").path("updated").asLong()).isEqualTo(1);
        assertThat(global.path("posts").path("deleted").asLong()).isEqualTo(1);
        assertThat(global.path("comments").asLong()).isEqualTo(3);
        assertThat(global.path("items").asLong()).as("i4 was deleted").isEqualTo(3);
        assertThat(global.path("completed").asLong()).isEqualTo(2);
    }

    @Test
    void statusIndexListsPostsByStatusNewestFirst() {
        JsonNode created = api.get("/posts?status=created");
        assertThat(Api.ids(created, "postId")).containsExactly("p4", "p1");
        JsonNode p1 = created.path("items").get(1);
        assertThat(p1.path("userId").asText()).isEqualTo("alice");
        assertThat(p1.path("status").asText()).isEqualTo("created");
        assertThat(p1.path("comments").asLong()).isEqualTo(2);

        assertThat(Api.ids(api.get("/posts?status=updated"), "postId")).containsExactly("p2");
        assertThat(api.get("/posts?status=updated").path("items").get(0).path("title").asText())
                .isEqualTo("Two, edited");
        assertThat(Api.ids(api.get("/posts?status=deleted"), "postId")).containsExactly("p3");
    }

    @Test
    void selectorsListCatalogueItemsByScore() {
        JsonNode backCatalogue = api.get("/selectors/back-catalogue");
        assertThat(Api.ids(backCatalogue, "itemId")).containsExactly("i2", "i1");
        assertThat(backCatalogue.path("items").get(0).path("score").asLong()).isEqualTo(20);
        assertThat(Api.ids(api.get("/selectors/global-cycle:1"), "itemId")).containsExactly("i3");
        assertThat(Api.ids(api.get("/selectors/user-cycle:1"), "itemId")).isEmpty();
    }

    @Test
    void derivedDataEqualsTheRebuildOracle() {
        VerificationReport report = Api.verify(runner);
        assertThat(report.differences()).isEmpty();
        assertThat(report.unreadableItems()).isZero();
        assertThat(report.isExact()).isTrue();
        assertThat(report.baseItems()).isPositive();
        assertThat(report.derivedItems()).isPositive();
    }

    @Test
    void domainEventsReachTheLocalBus() {
        JsonNode events = api.get("/events?limit=1000");
        List<String> detailTypes = new ArrayList<>();
        events.path("items").forEach(item -> detailTypes.add(item.path("event").path("detail-type").asText()));
        assertThat(detailTypes).contains("PostCreated", "PostStatusChanged", "CommentAdded", "CommentDeleted",
                "ItemCompleted", "UserStatsChanged");
        events.path("items").forEach(item -> assertThat(item.path("event").path("source").asText())
                .isEqualTo("io.tally"));
    }

    @Test
    void metricsShowTheStreamProcessorAndThePoller() {
        Api.Reply metrics = api.call("GET", LocalRunner.METRICS_PATH, null);
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.text())
                .contains("tally_stream_records_total{")
                .contains("entityType=\"Post\"")
                .contains("tally_stream_derived_writes_total")
                .contains("tally_poller_records_processed ")
                .contains("tally_poller_lag_seconds ");
        assertThat(runner.streamSnapshot().recordsProcessed()).isPositive();
        assertThat(api.call("POST", LocalRunner.METRICS_PATH, "{}").status()).isEqualTo(405);
    }

    @Test
    void metricsShowTheWritersRequestsLatencyAndErrors_byRouteTemplate_andTheDeadLetters() {
        assertThat(api.call("GET", "/no/such/route", null).status()).isEqualTo(404);

        String metrics = api.call("GET", LocalRunner.METRICS_PATH, null).text();

        // The three users of the setup, and more if other tests created some.
        assertThat(value(metrics, "tally_api_requests_total{route=\"/users\",status=\"201\"}")).isGreaterThanOrEqualTo(3);
        assertThat(value(metrics, "tally_api_requests_total{route=\"/users/{userId}/posts\",status=\"201\"}"))
                .isGreaterThanOrEqualTo(4);
        assertThat(value(metrics, "tally_api_latency_seconds_count{route=\"/users/{userId}/posts/{postId}/comments\"}"))
                .isGreaterThanOrEqualTo(4);
        assertThat(value(metrics, "tally_api_errors_total{code=\"not_found\",route=\"unmatched\"}"))
                .isGreaterThanOrEqualTo(1);
        // One series per template: no path with an id in it names a series.
        assertThat(metrics).doesNotContain("route=\"/users/alice");
        assertThat(value(metrics, "tally_deadletters")).isZero();
    }

    /** The value of the sample named exactly {@code series} (name and labels) in Prometheus's text format. */
    private static double value(String metrics, String series) {
        return metrics.lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no sample " + series + " in\n" + metrics));
    }
}
