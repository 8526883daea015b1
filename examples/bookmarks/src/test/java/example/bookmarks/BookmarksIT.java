package example.bookmarks;

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
 * The bookmarks domain over real HTTP, on the local runner with access control as deployed ({@code --auth}): the
 * contract of DOMAIN.md's "Example domain: bookmarks", its access rules, and its figures (the views' routes) once the
 * stream has drained.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BookmarksIT {
    private static LocalRunner runner;
    private static String ada;
    private static String bob;
    private static String admin;
    /** The month the bookmarks of this test are created in (from their {@code createdAt}). */
    private static String month;

    @BeforeAll
    static void start() {
        runner = LocalRunner.start(RunnerSettings.ephemeral().withAuth(true).withDomains(DomainRegistry.load()));
        LocalAuth auth = runner.auth().orElseThrow();
        ada = auth.mint("ada", false, Duration.ofMinutes(30), Instant.now());
        bob = auth.mint("bob", false, Duration.ofMinutes(30), Instant.now());
        admin = auth.mint("boss", true, Duration.ofMinutes(30), Instant.now());
        expect(call("POST", "/users", "{\"name\":\"Ada\",\"email\":\"ada@example.com\"}", ada), 201);
        expect(call("POST", "/users", "{\"name\":\"Bob\",\"email\":\"bob@example.com\"}", bob), 201);
        for (String item : new String[] {"55", "65", "75"}) {
            expect(call("PUT", "/items/" + item, "{\"score\":70,\"selector\":\"back-catalogue\"}", admin), 201);
        }
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    @Order(1)
    void put_createsThenReplaces_keepingCreatedAt_withTheContractsShape() throws Exception {
        Reply created = call("PUT", "/users/ada/bookmarks/55", "{\"note\":\"Read again\"}", ada);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.json().fieldNames()).toIterable()
                .containsExactly("userId", "itemId", "note", "createdAt", "updatedAt");
        String createdAt = created.json().path("createdAt").asText();
        assertThat(createdAt).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        month = createdAt.substring(0, 7);

        Thread.sleep(5);
        // No body is the same as {}: the note is cleared, createdAt kept.
        Reply replaced = call("PUT", "/users/ada/bookmarks/55", null, ada);
        assertThat(replaced.status()).as(replaced.text()).isEqualTo(200);
        assertThat(replaced.json().path("note").isNull()).isTrue();
        assertThat(replaced.json().path("createdAt").asText()).isEqualTo(createdAt);
        assertThat(replaced.json().path("updatedAt").asText()).isGreaterThan(createdAt);

        expect(call("PUT", "/users/ada/bookmarks/65", "{}", ada), 201);
        expect(call("PUT", "/users/bob/bookmarks/65", "{\"note\":\"x\"}", bob), 201);
        expect(call("PUT", "/users/bob/bookmarks/75", "{}", bob), 201);
        assertThat(call("GET", "/users/bob/bookmarks/65", null, bob).json().path("note").asText()).isEqualTo("x");
    }

    @Test
    @Order(2)
    void badInput_isA400_unknownUserOrItem_isA404() {
        for (String body : new String[] {"{\"note\":\"" + "x".repeat(501) + "\"}", "{\"note\":\"two\\nlines\"}",
                "{\"note\":\"a\\rb\"}", "{\"note\":5}", "{\"notes\":\"x\"}", "not json", "[]"}) {
            Reply reply = call("PUT", "/users/ada/bookmarks/55", body, ada);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.code()).as(body).isIn("validation_failed", "bad_request", "invalid_request");
        }
        // 500 code points, some outside the BMP (two chars each), is within the limit; so are an empty note, a blank
        // one and a tab: only a line break is refused.
        String note = "\uD83D\uDCD6".repeat(250) + "a".repeat(250);
        expect(call("PUT", "/users/ada/bookmarks/75", "{\"note\":\"" + note + "\"}", ada), 201);
        for (String line : new String[] {"", "   ", "a\\tb"}) {
            Reply kept = call("PUT", "/users/ada/bookmarks/75", "{\"note\":\"" + line + "\"}", ada);
            assertThat(kept.status()).as(line).isEqualTo(200);
            assertThat(kept.json().path("note").asText()).isEqualTo(line.replace("\\t", "\t"));
        }
        expect(call("DELETE", "/users/ada/bookmarks/75", null, ada), 200);

        assertThat(call("PUT", "/users/ada/bookmarks/404", "{}", ada).code()).isEqualTo("not_found");
        String ghost = runner.auth().orElseThrow().mint("ghost", false, Duration.ofMinutes(5), Instant.now());
        assertThat(call("PUT", "/users/ghost/bookmarks/55", "{}", ghost).code()).isEqualTo("not_found");
        assertThat(call("GET", "/users/ada/bookmarks/404", null, ada).status()).isEqualTo(404);
        assertThat(call("DELETE", "/users/ada/bookmarks/404", null, ada).status()).isEqualTo(404);
        for (String query : new String[] {"", "?month=2026-13", "?month=2026-1", "?month=" + month + "&limit=0",
                "?month=" + month + "&limit=101"}) {
            assertThat(call("GET", "/stats/bookmarks/top" + query, null, null).code()).as(query)
                    .isEqualTo("bad_request");
        }
    }

    @Test
    @Order(3)
    void access_asForAUsersOwnData_figuresPublic() {
        assertThat(call("PUT", "/users/ada/bookmarks/65", "{}", null).status()).isEqualTo(401);
        assertThat(call("PUT", "/users/ada/bookmarks/65", "{}", bob).status()).isEqualTo(403);
        assertThat(call("PUT", "/users/ada/bookmarks/65", "{}", admin).status()).isEqualTo(403);
        assertThat(call("DELETE", "/users/ada/bookmarks/65", null, bob).status()).isEqualTo(403);
        assertThat(call("GET", "/users/ada/bookmarks/65", null, null).status()).isEqualTo(401);
        assertThat(call("GET", "/users/ada/bookmarks/65", null, bob).status()).isEqualTo(403);
        assertThat(call("GET", "/users/ada/bookmarks/65", null, admin).status()).isEqualTo(200);
        assertThat(call("GET", "/stats/bookmarks/top?month=" + month, null, null).status()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void figures_onceDrained_areTheBookmarksThatExist() throws Exception {
        Reply deleted = call("DELETE", "/users/bob/bookmarks/75", null, bob);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().path("itemId").asText()).isEqualTo("75");
        runner.awaitDrained(Duration.ofSeconds(30));

        // 55: ada; 65: ada, bob; 75: none left (bob's deleted, ada's made and deleted).
        assertThat(call("GET", "/stats/items/55/bookmarks", null, null).text())
                .isEqualTo("{\"itemId\":\"55\",\"bookmarks\":1}");
        assertThat(call("GET", "/stats/items/65/bookmarks", null, null).text())
                .isEqualTo("{\"itemId\":\"65\",\"bookmarks\":2}");
        assertThat(call("GET", "/stats/items/75/bookmarks", null, null).text())
                .isEqualTo("{\"itemId\":\"75\",\"bookmarks\":0}");
        assertThat(call("GET", "/stats/users/ada/bookmarks", null, null).text())
                .isEqualTo("{\"userId\":\"ada\",\"bookmarks\":2}");
        assertThat(call("GET", "/stats/users/bob/bookmarks", null, null).text())
                .isEqualTo("{\"userId\":\"bob\",\"bookmarks\":1}");
        // Never bookmarked: 404, even for an item of the catalogue.
        assertThat(call("GET", "/stats/items/999/bookmarks", null, null).status()).isEqualTo(404);
        assertThat(call("GET", "/stats/users/nobody/bookmarks", null, null).status()).isEqualTo(404);

        assertThat(call("GET", "/stats/bookmarks/top?month=" + month, null, null).text())
                .isEqualTo("{\"month\":\"" + month + "\",\"items\":[{\"itemId\":\"65\",\"bookmarks\":2},"
                        + "{\"itemId\":\"55\",\"bookmarks\":1}]}");
        assertThat(call("GET", "/stats/bookmarks/top?month=" + month + "&limit=1", null, null).text())
                .isEqualTo("{\"month\":\"" + month + "\",\"items\":[{\"itemId\":\"65\",\"bookmarks\":2}]}");
        assertThat(call("GET", "/stats/bookmarks/top?month=1999-01", null, null).text())
                .isEqualTo("{\"month\":\"1999-01\",\"items\":[]}");

        // The dashboard's section names the ranking: the page reads its route for the current month.
        JsonNode section = null;
        for (JsonNode declared : call("GET", "/dashboard/sections.json", null, null).json().path("sections")) {
            section = "bookmarks".equals(declared.path("id").asText()) ? declared : section;
        }
        assertThat(section).as("the bookmarks' section").isNotNull();
        String read = section.path("path").asText().replace("{month}", month);
        assertThat(call("GET", read, null, null).json().path(section.path("rows").path("items").asText()).get(0)
                .path(section.path("rows").path("value").asText()).asLong()).isEqualTo(2);
    }

    @Test
    @Order(5)
    void events_everyChangeAnnouncesBookmarkChanged() {
        JsonNode events = call("GET", "/events?limit=100", null, admin).json();
        long bookmarked = 0;
        long removed = 0;
        for (JsonNode item : events.path("items")) {
            JsonNode event = item.path("event");
            if ("BookmarkChanged".equals(event.path("detail-type").asText())) {
                assertThat(event.path("detail").fieldNames()).toIterable()
                        .containsExactly("eventId", "userId", "itemId", "bookmarked");
                if (event.path("detail").path("bookmarked").asBoolean()) {
                    bookmarked++;
                } else {
                    removed++;
                }
            }
        }
        // Five creates and four replaces; two deletes.
        assertThat(bookmarked).isEqualTo(9);
        assertThat(removed).isEqualTo(2);
    }

    private static void expect(Reply reply, int status) {
        assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    }

    static Reply call(String method, String path, String body, String token) {
        return new ApiCalls(runner.baseUri()).call(method, path, body, token);
    }
}
