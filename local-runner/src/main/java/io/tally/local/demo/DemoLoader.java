package io.tally.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads the seed scenario through the writer API, over HTTP, as a person following the README's walkthrough would:
 * three users (among them the seed's {@code user-8790}), a few posts and comments, the learning catalogue of seed 003
 * (items 3, 34, 45, 55, 65, 84 and 102 with their selectors and scores), user-8790's items in every state, and seed
 * 002's organisation ABC with its teams mobile_team, web_team and dev_ops and its employees Maureen, Allie and Teri,
 * and seed 004's favourites of user-8790 (an image, a link, a file and a location) under the tags Travel, Recipes and
 * Work.
 *
 * <p>Once the stream is drained, {@code GET /stats/users/user-8790} reads completed 2, correctGuesses 1,
 * liveCompleted 1, assigned 2, inProgress 1, orphaned 1, posts 2 and comments 1; {@code GET /stats/orgs/abc} reads
 * teams 3, employees 3, memberships 4; {@code GET /stats/users/user-8790/favourites} reads 4 favourites, one of each
 * type, travel 2, recipes 2 and work 1; {@code GET /users/user-8790/favourites/search?q=naples} finds pizzeria and
 * naples-harbour.
 *
 * <p>Every write names its identifiers, so the scenario is loaded once: on a data directory that already holds it
 * the writes answer 409 (users, posts) or replace what is there (items), and {@link #loadSeed()} fails on the first
 * conflict rather than counting things twice.
 */
public final class DemoLoader {
    /** The demo's songs; the first ones take most of the synthetic load's downloads. */
    public static final java.util.List<String> SONGS = java.util.List.of("hot-song", "warm-song", "song-3",
            "song-4", "song-5", "song-6");
    /** The seed's user. */
    public static final String SEED_USER = "user-8790";
    /** The seed's organisation. */
    public static final String SEED_ORG = "abc";

    private final ApiClient api;
    private int writes;

    /** @param base the writer API, e.g. {@code http://127.0.0.1:8080} */
    public DemoLoader(URI base) {
        this.api = new ApiClient(base);
    }

    /**
     * Writes the seed scenario; returns the number of writes.
     *
     * @throws IOException if a write is refused (e.g. the scenario is there already) or the API cannot be reached
     */
    public int loadSeed() throws IOException, InterruptedException {
        writes = 0;
        // Blog (seeds 000, 001)
        write("POST", "/users", body("userId", SEED_USER, "name", "Eric", "email", "eric@example.com"));
        write("POST", "/users", body("userId", "user-1001", "name", "Ro", "email", "ro@example.com"));
        write("POST", "/users", body("userId", "user-1002", "name", "Sam", "email", "sam@example.com"));

        write("POST", "/users/user-8790/posts", body("postId", "dynamodb-101", "title", "Single-table design",
                "body", "One table, many entities."));
        write("POST", "/users/user-8790/posts", body("postId", "streams-102", "title", "DynamoDB Streams",
                "body", "Every change, in order, per item."));
        write("POST", "/users/user-1001/posts", body("postId", "gsi-overloading", "title", "Overloading a GSI",
                "body", "One index, many access patterns."));
        write("POST", "/users/user-1002/posts", body("postId", "draft-1", "title", "A draft",
                "body", "Soon deleted."));
        write("PATCH", "/users/user-8790/posts/dynamodb-101", body("title", "Single-table design, part 1"));
        write("DELETE", "/users/user-1002/posts/draft-1", null);

        write("POST", "/users/user-8790/posts/dynamodb-101/comments", body("authorId", "user-1001", "text", "First!"));
        write("POST", "/users/user-8790/posts/dynamodb-101/comments", body("authorId", "user-1002",
                "text", "What about transactions?"));
        write("POST", "/users/user-8790/posts/streams-102/comments", body("authorId", "user-1001",
                "text", "Exactly once?"));
        write("POST", "/users/user-1001/posts/gsi-overloading/comments", body("authorId", SEED_USER,
                "text", "Nice trick."));

        // Learning catalogue (seed 003)
        write("PUT", "/items/55", body("title", "Week 5: streams", "score", 70, "selector", "global-cycle:5"));
        write("PUT", "/items/65", body("title", "Week 5: indexes", "score", 80, "selector", "global-cycle:5"));
        write("PUT", "/items/84", body("title", "Assigned to you", "score", 350, "selector", "user-cycle:1"));
        write("PUT", "/items/3", body("title", "Partition keys", "score", 99, "selector", "back-catalogue"));
        write("PUT", "/items/45", body("title", "Sort keys", "score", 87, "selector", "back-catalogue"));
        write("PUT", "/items/34", body("title", "Hot partitions", "score", 12, "selector", "back-catalogue"));
        write("PUT", "/items/102", body("title", "Sparse indexes", "score", 40, "selector", "back-catalogue"));

        write("PUT", "/users/user-8790/items/45", body("state", "assigned"));
        write("PUT", "/users/user-8790/items/84", body("state", "assigned"));
        write("PUT", "/users/user-8790/items/55", body("state", "completed", "correct", true));
        write("PUT", "/users/user-8790/items/102", body("state", "completed", "live", true));
        write("PUT", "/users/user-8790/items/34", body("state", "orphaned"));
        write("PUT", "/users/user-8790/items/3", body("state", "in-progress", "progress", 0.87));

        // Organisations, teams, employees (seed 002)
        write("POST", "/orgs", body("orgId", SEED_ORG, "name", "ABC", "type", "Retail"));
        write("POST", "/orgs/abc/teams", body("teamId", "mobile_team", "name", "mobile_team", "details", "mobile app team"));
        write("POST", "/orgs/abc/teams", body("teamId", "web_team", "name", "web_team", "details", "web development team"));
        write("POST", "/orgs/abc/teams", body("teamId", "dev_ops", "name", "dev_ops", "details", "devops team"));
        write("POST", "/orgs/abc/employees", body("employeeId", "maureen", "name", "Maureen",
                "email", "maureen@test.com", "details", "Excepteur sint occaecat cupidatat non proident"));
        write("POST", "/orgs/abc/employees", body("employeeId", "allie", "name", "Allie",
                "email", "allie@test.com", "details", "Lorem ipsum dolor sit amet, consectetur adipiscing elit"));
        write("POST", "/orgs/abc/employees", body("employeeId", "teri", "name", "Teri",
                "email", "teri@test.com", "details", "Nemo enim ipsam voluptatem quia voluptas sit"));
        write("PUT", "/orgs/abc/teams/web_team/members/maureen", body("role", "developer"));
        write("PUT", "/orgs/abc/teams/dev_ops/members/maureen", body("role", "on call"));
        write("PUT", "/orgs/abc/teams/mobile_team/members/allie", body("role", "lead"));
        write("PUT", "/orgs/abc/teams/dev_ops/members/teri", body());

        // Song downloads (seed 002's aggregation example): the songs the synthetic load downloads
        for (int i = 0; i < SONGS.size(); i++) {
            write("PUT", "/songs/" + SONGS.get(i), body("title", "Demo song " + (i + 1), "artist", "The Demo Band"));
        }
        // A fortnight of downloads before today, so the charts have a history: each song about half the one before.
        Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS);
        for (int i = 0; i < SONGS.size(); i++) {
            for (int n = 0; n < 16 >> i; n++) {
                String at = today.minus(Duration.ofDays(1 + (n * 5L + i) % 14)).plusSeconds(3600L * (n % 20)).toString();
                write("POST", "/songs/" + SONGS.get(i) + "/downloads", body("downloadId", "seed-" + n, "userId",
                        n % 2 == 0 ? SEED_USER : "user-1001", "at", at));
            }
        }

        // Favourites with tags (seed 004), collected by user-8790
        write("POST", "/users/user-8790/tags", body("tagId", "travel", "name", "Travel"));
        write("POST", "/users/user-8790/tags", body("tagId", "recipes", "name", "Recipes"));
        write("POST", "/users/user-8790/tags", body("tagId", "work", "name", "Work"));
        write("POST", "/users/user-8790/favourites", body("favouriteId", "naples-harbour", "type", "image",
                "title", "Naples harbour at sunset", "contentUrl", "https://example.com/naples.jpg",
                "thumbnailUrl", "https://example.com/naples-thumb.jpg"));
        write("POST", "/users/user-8790/favourites", body("favouriteId", "pizza-dough", "type", "link",
                "title", "Neapolitan pizza dough", "contentUrl", "https://example.com/pizza-dough"));
        write("POST", "/users/user-8790/favourites", body("favouriteId", "streams-paper", "type", "file",
                "title", "DynamoDB Streams notes", "contentUrl", "https://example.com/streams.pdf", "creatorId",
                "user-1001"));
        write("POST", "/users/user-8790/favourites", body("favouriteId", "pizzeria", "type", "location",
                "title", "Pizzeria da Michele, Naples"));
        write("PUT", "/users/user-8790/favourites/naples-harbour/tags/travel", null);
        write("PUT", "/users/user-8790/favourites/pizzeria/tags/travel", null);
        write("PUT", "/users/user-8790/favourites/pizzeria/tags/recipes", null);
        write("PUT", "/users/user-8790/favourites/pizza-dough/tags/recipes", null);
        write("PUT", "/users/user-8790/favourites/streams-paper/tags/work", null);
        return writes;
    }

    private JsonNode write(String method, String path, Map<String, Object> body)
            throws IOException, InterruptedException {
        JsonNode answer = api.expectOk(method, path, body);
        writes++;
        return answer;
    }

    private static Map<String, Object> body(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }
}
