package example.reviews;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.domain.DomainRegistry;
import io.tally.local.LocalRunner;
import io.tally.local.RunnerSettings;
import io.tally.local.auth.LocalAuth;
import io.tally.testkit.ApiCalls;
import io.tally.testkit.ApiCalls.Reply;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The reviews domain over real HTTP, on the local runner with access control as deployed ({@code --auth}): the
 * contract of DOMAIN.md's "Example domain: reviews", its access rules, and its figures once the stream has drained.
 * The domain is on this module's class path, which is how a function's jar carries it too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReviewsIT {
    private static LocalRunner runner;
    private static String ada;
    private static String bob;
    private static String admin;

    @BeforeAll
    static void start() {
        runner = LocalRunner.start(RunnerSettings.ephemeral().withAuth(true).withDomains(DomainRegistry.load()));
        LocalAuth auth = runner.auth().orElseThrow();
        ada = auth.mint("ada", false, Duration.ofMinutes(30), Instant.now());
        bob = auth.mint("bob", false, Duration.ofMinutes(30), Instant.now());
        admin = auth.mint("boss", true, Duration.ofMinutes(30), Instant.now());
        expect(call("POST", "/users", "{\"name\":\"Ada\",\"email\":\"ada@example.com\"}", ada), 201);
        expect(call("POST", "/users", "{\"name\":\"Bob\",\"email\":\"bob@example.com\"}", bob), 201);
        expect(call("PUT", "/items/55", "{\"score\":70,\"selector\":\"back-catalogue\"}", admin), 201);
        expect(call("PUT", "/items/65", "{\"score\":80,\"selector\":\"back-catalogue\"}", admin), 201);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    @Order(1)
    void put_createsThenReplaces_withTheContractsShape() {
        Reply created = call("PUT", "/users/ada/reviews/55", "{\"stars\":5,\"text\":\"Clear.\"}", ada);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.json().fieldNames()).toIterable()
                .containsExactly("userId", "itemId", "stars", "text", "updatedAt");
        assertThat(created.json().path("stars").asLong()).isEqualTo(5);
        assertThat(created.json().path("updatedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");

        Reply replaced = call("PUT", "/users/ada/reviews/55", "{\"stars\":4}", ada);
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.json().path("text").isNull()).isTrue();

        expect(call("PUT", "/users/ada/reviews/65", "{\"stars\":3}", ada), 201);
        expect(call("PUT", "/users/bob/reviews/55", "{\"stars\":5}", bob), 201);
        expect(call("PUT", "/users/bob/reviews/65", "{\"stars\":2}", bob), 201);
        assertThat(call("GET", "/users/ada/reviews/55", null, ada).json().path("stars").asLong()).isEqualTo(4);
    }

    @Test
    @Order(2)
    void badInput_isA400_unknownUserOrItem_isA404() {
        for (String body : new String[] {"{\"stars\":0}", "{\"stars\":6}", "{\"stars\":2.5}", "{\"stars\":\"5\"}", "{}",
                "{\"stars\":3,\"text\":\"" + "x".repeat(2_001) + "\"}", "{\"stars\":3,\"rating\":1}", "not json",
                // Input is decoded strictly: numbers no field holds (1e2147483648 was a 500), text no field takes.
                "{\"stars\":1e2147483648}", "{\"stars\":5e-131}", "{\"stars\":3,\"text\":\"a\\u0000\"}",
                "{\"stars\":3,\"text\":\"\\ud800\"}"}) {
            Reply reply = call("PUT", "/users/ada/reviews/55", body, ada);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.code()).as(body).isIn("validation_failed", "bad_request", "invalid_request");
        }
        assertThat(call("PUT", "/users/ada/reviews/404", "{\"stars\":3}", ada).code()).isEqualTo("not_found");
        String ghost = runner.auth().orElseThrow().mint("ghost", false, Duration.ofMinutes(5), Instant.now());
        assertThat(call("PUT", "/users/ghost/reviews/55", "{\"stars\":3}", ghost).code()).isEqualTo("not_found");
        assertThat(call("GET", "/users/ada/reviews/404", null, ada).status()).isEqualTo(404);
        assertThat(call("DELETE", "/users/ada/reviews/404", null, ada).status()).isEqualTo(404);
    }

    @Test
    @Order(3)
    void access_asForAUsersOwnData_figuresPublic() {
        assertThat(call("PUT", "/users/ada/reviews/65", "{\"stars\":1}", null).status()).isEqualTo(401);
        assertThat(call("PUT", "/users/ada/reviews/65", "{\"stars\":1}", bob).status()).isEqualTo(403);
        assertThat(call("PUT", "/users/ada/reviews/65", "{\"stars\":1}", admin).status()).isEqualTo(403);
        assertThat(call("DELETE", "/users/ada/reviews/65", null, bob).status()).isEqualTo(403);
        assertThat(call("GET", "/users/ada/reviews/65", null, null).status()).isEqualTo(401);
        assertThat(call("GET", "/users/ada/reviews/65", null, bob).status()).isEqualTo(403);
        assertThat(call("GET", "/users/ada/reviews/65", null, admin).status()).isEqualTo(200);
        assertThat(call("GET", "/stats/items/55/reviews", null, null).status()).isEqualTo(200);
        assertThat(call("GET", "/stats/users/ada/reviews", null, null).status()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void figures_onceDrained_areTheReviewsThatExist() throws Exception {
        expect(call("DELETE", "/users/bob/reviews/65", null, bob), 200);
        runner.awaitDrained(Duration.ofSeconds(30));

        // 55: ada 4, bob 5 -> 4.5; 65: ada 3 (bob's deleted) -> 3.0.
        assertThat(call("GET", "/stats/items/55/reviews", null, null).text())
                .isEqualTo("{\"itemId\":\"55\",\"reviews\":2,\"averageStars\":4.5}");
        assertThat(call("GET", "/stats/items/65/reviews", null, null).text())
                .isEqualTo("{\"itemId\":\"65\",\"reviews\":1,\"averageStars\":3.0}");
        assertThat(call("GET", "/stats/users/ada/reviews", null, null).text())
                .isEqualTo("{\"userId\":\"ada\",\"reviews\":2}");
        assertThat(call("GET", "/stats/users/bob/reviews", null, null).text())
                .isEqualTo("{\"userId\":\"bob\",\"reviews\":1}");
        // An item or a user never written is a 404; one with nothing reviewed reads as zeros.
        assertThat(call("GET", "/stats/items/999/reviews", null, null).status()).isEqualTo(404);
        assertThat(call("GET", "/stats/users/nobody/reviews", null, null).status()).isEqualTo(404);
        expect(call("PUT", "/items/84", "{\"score\":1,\"selector\":\"back-catalogue\"}", admin), 201);
        assertThat(call("GET", "/stats/items/84/reviews", null, null).text())
                .isEqualTo("{\"itemId\":\"84\",\"reviews\":0,\"averageStars\":null}");
    }

    @Test
    @Order(5)
    void events_everyChangeAnnouncesReviewChanged() {
        // A review is a user's own data: the local events show it to an admin, not to anyone (as deployed).
        assertThat(call("GET", "/events?limit=100", null, null).text()).doesNotContain("ReviewChanged");
        JsonNode events = call("GET", "/events?limit=100", null, admin).json();
        long changes = 0;
        for (JsonNode item : events.path("items")) {
            if ("ReviewChanged".equals(item.path("event").path("detail-type").asText())) {
                changes++;
                assertThat(item.path("event").path("detail").fieldNames()).toIterable()
                        .containsExactly("eventId", "userId", "itemId", "stars", "previousStars");
            }
        }
        // Four creates, one replace and one delete.
        assertThat(changes).isEqualTo(6);
    }

    private static void expect(Reply reply, int status) {
        assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    }

    static Reply call(String method, String path, String body, String token) {
        return new ApiCalls(runner.baseUri()).call(method, path, body, token);
    }
}
