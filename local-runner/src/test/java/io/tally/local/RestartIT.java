package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.local.stream.FileCheckpointStore;
import io.tally.stream.rebuild.VerificationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner stopped while its stream is still being processed, started again on the same data directory: the new
 * poller resumes from the checkpoints, and the derived data ends up exactly what a rebuild computes, nothing counted
 * twice and nothing lost.
 */
class RestartIT {
    private static final int USERS = 4;
    private static final int POSTS_PER_USER = 3;
    private static final int COMMENTS_PER_POST = 3;

    @TempDir
    Path dataDir;

    @Test
    void stoppingMidStreamAndStartingAgainLeavesNoDrift() throws Exception {
        RunnerSettings settings = RunnerSettings.ephemeral().withDataDir(dataDir);
        try (LocalRunner first = LocalRunner.start(settings)) {
            Api api = new Api(first.baseUri());
            for (int u = 0; u < USERS; u++) {
                api.ok("POST", "/users", "{\"userId\":\"u" + u + "\",\"name\":\"User " + u
                        + "\",\"email\":\"u" + u + "@example.com\"}");
            }
            for (int u = 0; u < USERS; u++) {
                for (int p = 0; p < POSTS_PER_USER; p++) {
                    String post = "u" + u + "p" + p;
                    api.ok("POST", "/users/u" + u + "/posts", "{\"postId\":\"" + post + "\",\"title\":\"T\",\"body\":\"B\"}");
                    for (int c = 0; c < COMMENTS_PER_POST; c++) {
                        api.ok("POST", "/users/u" + u + "/posts/" + post + "/comments",
                                "{\"authorId\":\"u" + ((u + c + 1) % USERS) + "\",\"text\":\"c" + c + "\"}");
                    }
                }
            }
            api.ok("DELETE", "/users/u0/posts/u0p0", null);
            api.ok("PUT", "/items/x1", "{\"score\":1,\"selector\":\"back-catalogue\"}");
            api.ok("PUT", "/users/u1/items/x1", "{\"state\":\"completed\",\"correct\":true}");
            // No drain: close() stops the poller wherever it is; what it did not checkpoint comes again.
        }

        try (LocalRunner second = LocalRunner.start(settings)) {
            assertThat(second.tableCreated()).isFalse();
            second.awaitDrained(Api.DRAIN_TIMEOUT);

            assertThat(dataDir.resolve(FileCheckpointStore.FILE_NAME)).exists();
            VerificationReport report = Api.verify(second);
            assertThat(report.differences()).isEmpty();
            assertThat(report.isExact()).isTrue();

            Api api = new Api(second.baseUri());
            JsonNode global = api.get("/stats/global");
            assertThat(global.path("users").asLong()).isEqualTo(USERS);
            assertThat(global.path("posts").path("created").asLong()).isEqualTo(USERS * POSTS_PER_USER - 1);
            assertThat(global.path("posts").path("deleted").asLong()).isEqualTo(1);
            assertThat(global.path("comments").asLong()).isEqualTo(USERS * POSTS_PER_USER * COMMENTS_PER_POST);
            assertThat(global.path("items").asLong()).isEqualTo(1);
            assertThat(global.path("completed").asLong()).isEqualTo(1);

            JsonNode u0 = api.get("/stats/users/u0");
            assertThat(u0.path("posts").asLong()).isEqualTo(POSTS_PER_USER - 1);
            assertThat(u0.path("comments").asLong()).isEqualTo(POSTS_PER_USER * COMMENTS_PER_POST);
            assertThat(api.get("/stats/users/u1").path("correctGuesses").asLong()).isEqualTo(1);
            assertThat(api.get("/stats/posts/u2p1").path("comments").asLong()).isEqualTo(COMMENTS_PER_POST);
            assertThat(Files.readAllLines(dataDir.resolve(FileCheckpointStore.FILE_NAME))).isNotEmpty();
        }
    }
}
