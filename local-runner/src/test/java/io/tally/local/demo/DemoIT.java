package io.tally.local.demo;

import io.tally.local.RunnerSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.local.Api;
import io.tally.local.LocalRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The {@code --demo} scenario on a runner in this JVM: the seed's figures, then synthetic writes without drift. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoIT {
    private static LocalRunner runner;
    private static Api api;

    @BeforeAll
    static void start() {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    @Order(1)
    void seedScenarioGivesUser8790TheSeedsStats() throws Exception {
        int writes = new DemoLoader(runner.domains(), runner.baseUri()).loadSeed();
        assertThat(writes).isEqualTo(86);
        runner.awaitDrained(Api.DRAIN_TIMEOUT);

        JsonNode stats = api.get("/stats/users/user-8790");
        assertThat(stats.path("completed").asLong()).isEqualTo(2);
        assertThat(stats.path("correctGuesses").asLong()).isEqualTo(1);
        assertThat(stats.path("liveCompleted").asLong()).isEqualTo(1);
        assertThat(stats.path("assigned").asLong()).isEqualTo(2);
        assertThat(stats.path("inProgress").asLong()).isEqualTo(1);
        assertThat(stats.path("orphaned").asLong()).isEqualTo(1);
        assertThat(stats.path("posts").asLong()).isEqualTo(2);
        assertThat(stats.path("comments").asLong()).isEqualTo(1);

        assertThat(Api.ids(api.get("/selectors/back-catalogue"), "itemId")).containsExactly("3", "45", "102", "34");
        assertThat(Api.ids(api.get("/selectors/global-cycle:5"), "itemId")).containsExactly("65", "55");
        assertThat(Api.ids(api.get("/selectors/user-cycle:1"), "itemId")).containsExactly("84");
        assertThat(Api.ids(api.get("/posts?status=deleted"), "postId")).containsExactly("draft-1");
        assertThat(api.get("/stats/orgs/abc").toString())
                .isEqualTo("{\"orgId\":\"abc\",\"teams\":3,\"employees\":3,\"memberships\":4}");
        assertThat(api.get("/stats/teams/dev_ops").path("members").asLong()).isEqualTo(2);
        // A fortnight of downloads: 16 of the first song, each next one half as many (song-6 none).
        assertThat(api.get("/stats/songs/hot-song").path("downloads").asLong()).isEqualTo(16);
        assertThat(api.get("/stats/songs/song-5").path("downloads").asLong()).isEqualTo(1);
        assertThat(api.get("/stats/global").path("downloads").asLong()).isEqualTo(31);
        assertThat(api.get("/stats/users/user-8790/favourites").toString()).isEqualTo("{\"userId\":\"user-8790\","
                + "\"favourites\":4,\"byType\":{\"image\":1,\"link\":1,\"file\":1,\"location\":1},"
                + "\"byTag\":{\"recipes\":2,\"travel\":2,\"work\":1}}");
        assertThat(Api.ids(api.get("/users/user-8790/favourites/search?q=naples"), "favouriteId"))
                .containsExactly("pizzeria", "naples-harbour");
        assertThat(Api.ids(api.get("/users/user-8790/favourites/search?q=pizz"), "favouriteId"))
                .containsExactly("pizzeria", "pizza-dough");
        assertThat(Api.ids(api.get("/users/user-8790/favourites?tag=travel"), "favouriteId"))
                .containsExactly("pizzeria", "naples-harbour");
        assertThat(Api.verify(runner).isExact()).isTrue();
    }

    @Test
    @Order(2)
    void aSecondLoadIsRefusedRatherThanCountedTwice() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DemoLoader(runner.domains(), runner.baseUri()).loadSeed())
                .hasMessageContaining("409");
    }

    @Test
    @Order(3)
    void syntheticLoadKeepsTheDerivedDataExact() throws Exception {
        SyntheticLoad load = new SyntheticLoad(runner.domains(), runner.baseUri(), 20, new Random(8790));
        JsonNode before = api.get("/stats/global");
        for (int i = 0; i < 60; i++) {
            load.writeOnce(); // on this thread: no rate, no timing
        }
        assertThat(load.writes()).isEqualTo(60);
        assertThat(load.failed()).isZero();
        runner.awaitDrained(Api.DRAIN_TIMEOUT);

        // Both domains with a load wrote: the blog (posts, comments) and the songs (downloads).
        JsonNode after = api.get("/stats/global");
        assertThat(after.path("posts").path("created").asLong() + after.path("comments").asLong())
                .isGreaterThan(before.path("posts").path("created").asLong() + before.path("comments").asLong());
        assertThat(after.path("downloads").asLong()).isGreaterThan(before.path("downloads").asLong());
        assertThat(Api.verify(runner).isExact()).isTrue();
    }

    @Test
    @Order(4)
    void progressLineShowsWritesStreamAndGlobalFigures() throws Exception {
        StringWriter text = new StringWriter();
        try (Demo demo = Demo.forTest(runner, new PrintWriter(text, true))) {
            String line = demo.progressLine();
            assertThat(line).contains("writes").contains("records processed").contains("lag")
                    .containsPattern("users \\d+, posts created \\d+, posts updated \\d+, posts deleted \\d+, "
                            + "comments \\d+");
        }
    }
}
