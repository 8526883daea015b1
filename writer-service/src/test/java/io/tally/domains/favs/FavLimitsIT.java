package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DOMAIN.md's limits over HTTP on DynamoDB Local: a user holds at most 1,000 tags and a favourite at most 50 tag links;
 * the next one is 409 {@code conflict} naming the limit, a repeated link is still a 200, a removal makes room, and two
 * requests racing for the last place cannot both have it.
 */
class FavLimitsIT {
    private final TestApi api = TestApi.onFreshTable(TestClock.stepping(Instant.parse("2026-11-27T08:00:00Z"),
            Duration.ofMillis(1)));

    @BeforeEach
    void jessica() {
        assertThat(api.call("POST", "/users", "{\"userId\":\"jessica\",\"name\":\"Jessica\",\"email\":\"j@test.com\"}")
                .status()).isEqualTo(201);
    }

    private TestApi.Response tag(String id) {
        return api.call("POST", "/users/jessica/tags", "{\"tagId\":\"" + id + "\",\"name\":\"" + id + "\"}");
    }

    private TestApi.Response link(String favouriteId, String tagId) {
        return api.call("PUT", "/users/jessica/favourites/" + favouriteId + "/tags/" + tagId, null);
    }

    private void collect(String id) {
        assertThat(api.call("POST", "/users/jessica/favourites",
                "{\"favouriteId\":\"" + id + "\",\"type\":\"image\",\"title\":\"Beach\"}").status()).isEqualTo(201);
    }

    @Test
    void aThousandTags_theNextIsAConflictNamingTheLimit_aDeleteMakesRoom() {
        for (int i = 0; i < FavQuota.TAGS; i++) {
            assertThat(tag("t" + i).status()).as("tag %d", i).isEqualTo(201);
        }

        TestApi.Response over = tag("one-more");

        over.assertClientError("conflict", null);
        assertThat(over.status()).isEqualTo(409);
        assertThat(over.body().path("error").path("message").asText()).contains("1000 tags", "limit is 1000");
        assertThat(api.call("DELETE", "/users/jessica/tags/t7", null).status()).isEqualTo(200);
        assertThat(tag("one-more").status()).isEqualTo(201);
        assertThat(tag("two-more").status()).isEqualTo(409);
    }

    @Test
    void fiftyLinks_theNextIsAConflict_aRepeatedLinkStillA200_anUnlinkMakesRoom_aNewIncarnationStartsAfresh() {
        collect("f1");
        for (int i = 0; i <= FavQuota.LINKS; i++) {
            assertThat(tag("t" + i).status()).isEqualTo(201);
        }
        for (int i = 0; i < FavQuota.LINKS; i++) {
            assertThat(link("f1", "t" + i).status()).as("link %d", i).isEqualTo(201);
        }

        TestApi.Response over = link("f1", "t50");

        assertThat(over.status()).isEqualTo(409);
        assertThat(over.errorCode()).isEqualTo("conflict");
        assertThat(over.body().path("error").path("message").asText()).contains("50 tag links", "limit is 50");
        assertThat(link("f1", "t3").status()).as("a link that is there already").isEqualTo(200);
        assertThat(api.call("GET", "/users/jessica/favourites/f1/tags?limit=100").body().get("items")).hasSize(50);
        assertThat(api.call("DELETE", "/users/jessica/favourites/f1/tags/t3", null).status()).isEqualTo(200);
        assertThat(link("f1", "t50").status()).isEqualTo(201);

        // Un-collected and collected again: the earlier favourite's links (the stream processor's cascade removes them;
        // none runs here) do not count against the new one.
        assertThat(api.call("DELETE", "/users/jessica/favourites/f1", null).status()).isEqualTo(200);
        collect("f1");
        assertThat(link("f1", "t0").status()).isEqualTo(201);
    }

    @Test
    void atFiftyLinks_aTagDeletedAndCreatedAgain_isLinkedAgain_theNewLinkReplacingTheOld() {
        collect("f1");
        for (int i = 0; i < FavQuota.LINKS; i++) {
            tag("t" + i);
            assertThat(link("f1", "t" + i).status()).isEqualTo(201);
        }
        // The tag is deleted and created again under its id; its old link is still there (the stream processor's
        // cascade has not run: none runs here), counted among the 50.
        assertThat(api.call("DELETE", "/users/jessica/tags/t0", null).status()).isEqualTo(200);
        assertThat(tag("t0").status()).isEqualTo(201);

        assertThat(link("f1", "t0").status()).as("the new link replaces the old one: no more links").isEqualTo(201);
        assertThat(link("f1", "t0").status()).isEqualTo(200);
        tag("t99");
        assertThat(link("f1", "t99").status()).isEqualTo(409);
    }

    @Test
    void twoLinksRacingForTheLastPlace_oneIsCreated_theOtherIsAConflict() throws Exception {
        collect("f1");
        for (int i = 0; i < FavQuota.LINKS + 1; i++) {
            tag("t" + i);
        }
        for (int i = 0; i < FavQuota.LINKS - 1; i++) {
            assertThat(link("f1", "t" + i).status()).isEqualTo(201);
        }
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Integer>> racing = new ArrayList<>();
        for (String tagId : List.of("t49", "t50")) {
            racing.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return link("f1", tagId).status();
            }));
        }
        start.countDown();

        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<Integer> future : racing) {
            statuses.add(future.get());
        }

        assertThat(statuses).containsExactlyInAnyOrder(201, 409);
        assertThat(api.call("GET", "/users/jessica/favourites/f1/tags?limit=100").body().get("items")).hasSize(50);
    }
}
