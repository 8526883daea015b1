package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 004 over HTTP on the whole local pipeline: a random workload of tags (renamed, deleted), favourites (collected,
 * un-collected, collected again under a freed id) and links, whose cascades the stream processor runs; then the stats,
 * the link lists both ways and the search results must equal what this test computes on its own from what it wrote.
 */
class FavsPipelineIT {
    private static final String[] WORDS = {"pizza", "naples", "beach", "go", "harbour", "trip", "pie", "Pisa"};
    private static final String[] TYPES = {"image", "video", "link", "file", "music", "chat", "voice", "note", "location"};
    private static final String[] USERS = {"ann", "bob"};

    private static LocalRunner runner;
    private static Api api;

    /** The test's model: what exists, after the API said so. */
    private record Fav(String user, String id, String type, String title, String clippedAt) {
    }

    private final Map<String, Fav> favourites = new LinkedHashMap<>();
    /** user/tagId. */
    private final List<String> tags = new ArrayList<>();
    /** user/favouriteId/tagId. */
    private final TreeSet<String> links = new TreeSet<>();
    /** Un-collects and tag deletes that left links for the cascades. */
    private int cascades;

    @BeforeAll
    static void start() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());
        for (String user : USERS) {
            api.ok("POST", "/users", "{\"userId\":\"" + user + "\",\"name\":\"" + user + "\",\"email\":\"" + user
                    + "@test.com\"}");
        }
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void randomWorkloadWithCascades_convergesToTheTestsOwnComputation() throws Exception {
        Random random = new Random(4);
        for (int step = 0; step < 160; step++) {
            step(random, step);
        }
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        assertThat(cascades).as("deletes that leave links to the cascades").isGreaterThan(3);

        for (String user : USERS) {
            eventually(() -> api.get("/stats/users/" + user + "/favourites").toString(), expectedStats(user));
            for (String tag : tags) {
                if (tag.startsWith(user + "/")) {
                    String tagId = tag.substring(user.length() + 1);
                    assertThat(Api.ids(api.get("/users/" + user + "/favourites?tag=" + tagId + "&limit=100"),
                            "favouriteId")).as("favourites under %s", tag).isEqualTo(newestFirst(user, tagId, null));
                    String type = TYPES[random.nextInt(3)];
                    assertThat(Api.ids(api.get("/users/" + user + "/favourites?tag=" + tagId + "&type=" + type
                            + "&limit=100"), "favouriteId")).isEqualTo(newestFirst(user, tagId, type));
                }
            }
            for (Fav favourite : favourites.values()) {
                if (favourite.user().equals(user)) {
                    List<String> expected = links.stream()
                            .filter(link -> link.startsWith(user + "/" + favourite.id() + "/"))
                            .map(link -> link.substring(link.lastIndexOf('/') + 1)).toList();
                    assertThat(Api.ids(api.get("/users/" + user + "/favourites/" + favourite.id() + "/tags?limit=100"),
                            "tagId")).as("tags of %s", favourite.id()).isEqualTo(expected);
                }
            }
            assertThat(Api.ids(api.get("/users/" + user + "/favourites?limit=100"), "favouriteId"))
                    .isEqualTo(newestFirst(user, null, null));
            for (String q : new String[] {"pizza", "p", "pi", "Naples pi", "beach, go", "trip pizza naples", "har",
                    "harbour", "pisa", "zzz"}) {
                assertThat(searchAll(user, q)).as("search %s for %s", user, q).isEqualTo(searched(user, q));
            }
        }
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        assertThat(Api.verify(runner).isExact()).isTrue();
    }

    private void step(Random random, int step) {
        String user = USERS[random.nextInt(USERS.length)];
        int roll = random.nextInt(100);
        List<String> own = tags.stream().filter(tag -> tag.startsWith(user + "/")).toList();
        List<Fav> mine = favourites.values().stream().filter(fav -> fav.user().equals(user)).toList();
        if (own.isEmpty() || roll < 12) {
            String tagId = "t" + random.nextInt(12);
            if (api.call("POST", "/users/" + user + "/tags", "{\"tagId\":\"" + tagId + "\",\"name\":\"Tag " + step
                    + "\"}").status() == 201) {
                tags.add(user + "/" + tagId);
            }
        } else if (mine.isEmpty() || roll < 40) {
            String id = "f" + random.nextInt(40);
            String type = TYPES[random.nextInt(3)];
            StringBuilder title = new StringBuilder(WORDS[random.nextInt(WORDS.length)]);
            for (int words = random.nextInt(3); words > 0; words--) {
                title.append(random.nextBoolean() ? " " : "-").append(WORDS[random.nextInt(WORDS.length)]);
            }
            Api.Reply reply = api.call("POST", "/users/" + user + "/favourites", "{\"favouriteId\":\"" + id
                    + "\",\"type\":\"" + type + "\",\"title\":\"" + title + "\"}");
            if (reply.status() == 201) {
                favourites.put(user + "/" + id, new Fav(user, id, type, title.toString(),
                        reply.json().get("clippedAt").asText()));
            }
        } else if (roll < 75) {
            Fav favourite = mine.get(random.nextInt(mine.size()));
            String tag = own.get(random.nextInt(own.size()));
            String tagId = tag.substring(user.length() + 1);
            api.ok("PUT", "/users/" + user + "/favourites/" + favourite.id() + "/tags/" + tagId, null);
            links.add(user + "/" + favourite.id() + "/" + tagId);
        } else if (roll < 82 && !links.isEmpty()) {
            String link = links.first();
            String[] parts = link.split("/");
            api.ok("DELETE", "/users/" + parts[0] + "/favourites/" + parts[1] + "/tags/" + parts[2], null);
            links.remove(link);
        } else if (roll < 87) {
            String tag = own.get(random.nextInt(own.size()));
            api.ok("PATCH", "/users/" + user + "/tags/" + tag.substring(user.length() + 1),
                    "{\"name\":\"Renamed " + step + "\"}");
        } else if (roll < 95) {
            Fav favourite = mine.get(random.nextInt(mine.size()));
            api.ok("DELETE", "/users/" + user + "/favourites/" + favourite.id(), null);
            favourites.remove(user + "/" + favourite.id());
            cascades += links.stream().anyMatch(link -> link.startsWith(user + "/" + favourite.id() + "/")) ? 1 : 0;
            links.removeIf(link -> link.startsWith(user + "/" + favourite.id() + "/"));
        } else {
            String tag = own.get(random.nextInt(own.size()));
            String tagId = tag.substring(user.length() + 1);
            api.ok("DELETE", "/users/" + user + "/tags/" + tagId, null);
            tags.remove(tag);
            cascades += links.stream().anyMatch(link -> link.startsWith(user + "/") && link.endsWith("/" + tagId))
                    ? 1 : 0;
            links.removeIf(link -> link.startsWith(user + "/") && link.endsWith("/" + tagId));
        }
    }

    private String expectedStats(String user) {
        Map<String, Integer> byType = new LinkedHashMap<>();
        for (String type : TYPES) {
            int count = (int) favourites.values().stream()
                    .filter(fav -> fav.user().equals(user) && fav.type().equals(type)).count();
            if (count > 0) {
                byType.put(type, count);
            }
        }
        Map<String, Integer> byTag = new TreeMap<>();
        links.stream().filter(link -> link.startsWith(user + "/"))
                .forEach(link -> byTag.merge(link.substring(link.lastIndexOf('/') + 1), 1, Integer::sum));
        long total = favourites.values().stream().filter(fav -> fav.user().equals(user)).count();
        return "{\"userId\":\"" + user + "\",\"favourites\":" + total + ",\"byType\":" + json(byType) + ",\"byTag\":"
                + json(byTag) + "}";
    }

    private static String json(Map<String, Integer> counts) {
        List<String> parts = new ArrayList<>();
        counts.forEach((key, count) -> parts.add("\"" + key + "\":" + count));
        return "{" + String.join(",", parts) + "}";
    }

    /** The user's favourites (under a tag, of a type), newest first, ties by id descending. */
    private List<String> newestFirst(String user, String tagId, String type) {
        return favourites.values().stream()
                .filter(fav -> fav.user().equals(user))
                .filter(fav -> tagId == null || links.contains(user + "/" + fav.id() + "/" + tagId))
                .filter(fav -> type == null || fav.type().equals(type))
                .sorted(NEWEST_FIRST).map(Fav::id).toList();
    }

    private static final Comparator<Fav> NEWEST_FIRST =
            Comparator.comparing(Fav::clippedAt).thenComparing(Fav::id).reversed();

    /** The search, computed here: every word of q in the title, the last one as a prefix, ignoring case. */
    private List<String> searched(String user, String q) {
        List<String> query = words(q);
        return favourites.values().stream().filter(fav -> fav.user().equals(user)).filter(fav -> {
            List<String> title = words(fav.title());
            for (int i = 0; i < query.size(); i++) {
                String word = query.get(i);
                boolean last = i == query.size() - 1;
                if (title.stream().noneMatch(t -> last ? t.startsWith(word) : t.equals(word))) {
                    return false;
                }
            }
            return true;
        }).sorted(NEWEST_FIRST).map(Fav::id).toList();
    }

    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }

    /** Every page of a search, with a small page size so that the cursor is exercised. */
    private static List<String> searchAll(String user, String q) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = api.get("/users/" + user + "/favourites/search?limit=3&q="
                    + q.replace(" ", "%20").replace(",", "%2C") + (cursor == null ? "" : "&cursor=" + cursor));
            page.get("items").forEach(item -> ids.add(item.get("favouriteId").asText()));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
        } while (cursor != null);
        return ids;
    }

    /** The cascades' own records reach the stream after the deletes: poll until the figures follow. */
    private static void eventually(Supplier<String> actual, String expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!expected.equals(actual.get()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertThat(actual.get()).isEqualTo(expected);
    }

}
