package io.tally.writer.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.domains.catalogue.Selectors;
import io.tally.testkit.LocalDynamoDb;
import io.tally.writer.TestApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The read side against embedded DynamoDB Local. Base items are created through the API; the derived items
 * are put directly, in the shape the table design gives them, standing in for the stream processor.
 */
class StatsRoutesIT {
    private static final int K = ShardSettings.DEFAULT;
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00.000Z");

    private final TestApi api = TestApi.onFreshTable();

    // --- derived items, as the stream processor writes them -----------------------------------------------

    private void put(Key key, EntityType type, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(type.attributeValue()));
        // A watermark like the stream processor's: the read side must not show it.
        item.put(TableSchema.WATERMARKS + "_shardId-00000001", AttributeValue.fromS("000000000000000000042"));
        item.putAll(attributes);
        LocalDynamoDb.client().putItem(r -> r.tableName(api.table()).item(item));
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private record Projection(String postId, String userId, String title, PostStatus status, Instant createdAt,
                              Instant updatedAt, Long comments) {
        int shard() {
            return Shards.of(postId, K);
        }
    }

    private void put(Projection p) {
        Map<String, AttributeValue> attributes = new HashMap<>();
        attributes.put("postId", s(p.postId()));
        attributes.put("userId", s(p.userId()));
        attributes.put("title", s(p.title()));
        attributes.put("status", s(p.status().value()));
        attributes.put("createdAt", s(Timestamps.format(p.createdAt())));
        attributes.put("updatedAt", s(Timestamps.format(p.updatedAt())));
        if (p.comments() != null) {
            attributes.put("comments", n(p.comments()));
        }
        attributes.put(BlogKeys.STATUS_SHARD, s(BlogKeys.statusShard(p.status(), p.shard())));
        attributes.put(BlogKeys.STATUS_POSTED_AT, s(BlogKeys.postedAt(p.postId(), p.createdAt())));
        put(BlogKeys.postProjection(p.postId()), Blog.POST_PROJECTION.entityType(), attributes);
    }

    private record Entry(String itemId, String title, long score, String selector) {
        String partition() {
            return CatalogueKeys.selectorPartition(selector, itemId, K);
        }
    }

    private void put(Entry e) {
        Map<String, AttributeValue> attributes = new HashMap<>();
        attributes.put("itemId", s(e.itemId()));
        if (e.title() != null) {
            attributes.put("title", s(e.title()));
        }
        attributes.put("score", n(e.score()));
        attributes.put(TableSchema.SELECTOR, s(e.partition()));
        attributes.put(TableSchema.DATA, n(e.score()));
        put(CatalogueKeys.selectorEntry(e.itemId()), Catalogue.SELECTOR_ENTRY.entityType(), attributes);
    }

    // --- helpers -----------------------------------------------------------------------------------------

    private void createUser(String userId) {
        assertThat(api.call("POST", "/users", "{\"userId\":\"" + userId + "\",\"name\":\"N\",\"email\":\"n@example.com\"}")
                .status()).isEqualTo(201);
    }

    private void createPost(String userId, String postId) {
        assertThat(api.call("POST", "/users/" + userId + "/posts",
                "{\"postId\":\"" + postId + "\",\"title\":\"T\",\"body\":\"B\"}").status()).isEqualTo(201);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Reads a list page by page to its end; checks every page's shape and size. */
    private List<JsonNode> readAll(String path, int limit) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String separator = path.contains("?") ? "&" : "?";
            var page = api.call("GET", path + separator + "limit=" + limit + (cursor == null ? "" : "&cursor=" + encode(cursor)));
            assertThat(page.status()).isEqualTo(200);
            assertThat(fieldNames(page.body())).containsExactly("items", "cursor");
            assertThat(page.body().get("items").size()).isBetween(1, limit);
            page.body().get("items").forEach(items::add);
            cursor = page.body().get("cursor").isNull() ? null : page.body().get("cursor").asText();
            assertThat(++pages).isLessThan(100);
        } while (cursor != null);
        return items;
    }

    private static List<String> texts(List<JsonNode> items, String field) {
        return items.stream().map(item -> item.get(field).asText()).toList();
    }

    // --- GET /stats/users/{userId} -------------------------------------------------------------------------

    @Test
    void userStats_userWithoutStats_readsZerosInContractOrder() {
        createUser("u1");

        var response = api.call("GET", "/stats/users/u1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo(expected(Users.USER_STATS, "u1", Map.of()));
    }

    @Test
    void userStats_statsItem_readsItsCountersAndZeroForTheMissingOnes() {
        createUser("u1");
        put(Users.statsKey("u1"), Users.USER_STATS.entityType(), Map.of("userId", s("u1"), "posts", n(3), "comments", n(5),
                "completed", n(4), "correctGuesses", n(2), "liveCompleted", n(1), "assigned", n(7)));

        var response = api.call("GET", "/stats/users/u1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo(expected(Users.USER_STATS, "u1", Map.of("posts", 3L,
                "comments", 5L, "completed", 4L, "correctGuesses", 2L, "liveCompleted", 1L, "assigned", 7L)));
    }

    @Test
    void userStats_userNeverWritten_returns404() {
        var response = api.call("GET", "/stats/users/nobody");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorCode()).isEqualTo("not_found");
    }

    @Test
    void userStats_malformedId_returns400NamingIt() {
        var response = api.call("GET", "/stats/users/a%23b");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.errorCode()).isEqualTo("validation_failed");
        assertThat(response.errorField()).isEqualTo("userId");
    }

    // --- GET /stats/posts/{postId} -------------------------------------------------------------------------

    @Test
    void postStats_postWithoutProjection_readsZeroComments() {
        createUser("u1");
        createPost("u1", "p1");

        var response = api.call("GET", "/stats/posts/p1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo("{\"postId\":\"p1\",\"comments\":0}");
    }

    @Test
    void postStats_projection_readsItsCommentCount() {
        createUser("u1");
        createPost("u1", "p1");
        put(new Projection("p1", "u1", "T", PostStatus.CREATED, T0, T0, 3L));

        var response = api.call("GET", "/stats/posts/p1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo("{\"postId\":\"p1\",\"comments\":3}");
    }

    @Test
    void postStats_softDeletedPost_stillReadsItsCount() {
        createUser("u1");
        createPost("u1", "p1");
        assertThat(api.call("DELETE", "/users/u1/posts/p1").status()).isEqualTo(200);

        assertThat(api.call("GET", "/stats/posts/p1").body().toString()).isEqualTo("{\"postId\":\"p1\",\"comments\":0}");
    }

    @Test
    void postStats_postNeverWritten_returns404() {
        createUser("u1");

        var response = api.call("GET", "/stats/posts/nothing");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorCode()).isEqualTo("not_found");
    }

    /**
     * The answer a shared item's route must give: every counter the registry's domains declare, in the registry's
     * order, at its path, with the figure given here or zero (a new domain's counters join without a test change).
     */
    private static String expected(io.tally.core.DerivedType type, String userId, Map<String, Long> figures) {
        com.fasterxml.jackson.databind.node.ObjectNode json = io.tally.core.http.Json.object();
        if (userId != null) {
            json.put("userId", userId);
        }
        for (io.tally.core.SharedCounter counter : io.tally.core.domain.DomainRegistry.load().sharedCounters(type)) {
            com.fasterxml.jackson.databind.node.ObjectNode parent = json;
            for (String name : counter.path().subList(0, counter.path().size() - 1)) {
                parent = parent.has(name) ? (com.fasterxml.jackson.databind.node.ObjectNode) parent.get(name)
                        : parent.putObject(name);
            }
            parent.put(counter.path().get(counter.path().size() - 1), figures.getOrDefault(counter.attribute(), 0L));
        }
        return json.toString();
    }

    // --- GET /stats/global ---------------------------------------------------------------------------------

    @Test
    void globalStats_noShardWrittenYet_readsZerosInContractOrder() {
        var response = api.call("GET", "/stats/global");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo(expected(Users.GLOBAL_STATS, null, Map.of()));
    }

    @Test
    void globalStats_everyShard_areSummed() {
        put(Users.globalStatsKey(0), Users.GLOBAL_STATS.entityType(), Map.of("users", n(1), "postsCreated", n(2), "comments", n(3)));
        put(Users.globalStatsKey(1), Users.GLOBAL_STATS.entityType(), Map.of("users", n(10), "postsUpdated", n(20), "items", n(30)));
        put(Users.globalStatsKey(2), Users.GLOBAL_STATS.entityType(), Map.of("postsDeleted", n(100), "completed", n(200),
                "orgs", n(1), "employees", n(3), "favourites", n(4)));
        put(Users.globalStatsKey(3), Users.GLOBAL_STATS.entityType(), Map.of("users", n(1000), "postsCreated", n(2000),
                "postsUpdated", n(3000), "postsDeleted", n(4000), "comments", n(5000), "items", n(6000), "completed", n(7000)));
        // Beyond the configured shard count: not a shard, not counted.
        put(Users.globalStatsKey(K), Users.GLOBAL_STATS.entityType(), Map.of("users", n(99999)));

        var response = api.call("GET", "/stats/global");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo(expected(Users.GLOBAL_STATS, null, Map.of("users", 1011L,
                "postsCreated", 2002L, "postsUpdated", 3020L, "postsDeleted", 4100L, "comments", 5003L, "items", 6030L,
                "completed", 7200L, "orgs", 1L, "employees", 3L, "favourites", 4L)));
    }

    // --- GET /posts?status= --------------------------------------------------------------------------------

    /** Nine created posts over all four shards, two of them created in the same millisecond, and some others. */
    private List<Projection> createdPosts() {
        List<Projection> created = new ArrayList<>();
        String[] ids = {"p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09"};
        for (int i = 0; i < ids.length; i++) {
            Instant at = T0.plusSeconds(i == 8 ? 7 : i);
            created.add(new Projection(ids[i], "u" + (i % 3), "Title " + i, PostStatus.CREATED, at, at,
                    i % 2 == 0 ? (long) i : null));
        }
        created.forEach(this::put);
        put(new Projection("q01", "u1", "Updated", PostStatus.UPDATED, T0.plusSeconds(3), T0.plusSeconds(60), 2L));
        put(new Projection("q02", "u1", "Deleted", PostStatus.DELETED, T0.plusSeconds(4), T0.plusSeconds(70), null));
        return created;
    }

    private static List<Projection> newestFirst(List<Projection> projections) {
        return projections.stream()
                .sorted(Comparator.comparing(Projection::createdAt).thenComparing(Projection::postId).reversed())
                .toList();
    }

    @Test
    void postsByStatus_oneLargePage_listsTheStatusNewestFirstWithTheContractFields() {
        List<Projection> created = createdPosts();
        assertThat(created.stream().map(Projection::shard).collect(Collectors.toSet())).isEqualTo(Set.of(0, 1, 2, 3));

        var response = api.call("GET", "/posts?status=created");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().get("cursor").isNull()).isTrue();
        List<JsonNode> items = StreamSupport.stream(response.body().get("items").spliterator(), false).toList();
        assertThat(texts(items, "postId")).containsExactlyElementsOf(newestFirst(created).stream().map(Projection::postId).toList());
        assertThat(items).allSatisfy(item -> assertThat(fieldNames(item))
                .containsExactly("postId", "userId", "title", "status", "createdAt", "updatedAt", "comments"));
        JsonNode p09 = items.get(texts(items, "postId").indexOf("p09"));
        assertThat(p09.toString()).isEqualTo("{\"postId\":\"p09\",\"userId\":\"u2\",\"title\":\"Title 8\",\"status\":\"created\","
                + "\"createdAt\":\"2026-11-22T10:00:07.000Z\",\"updatedAt\":\"2026-11-22T10:00:07.000Z\",\"comments\":8}");
        JsonNode p02 = items.get(texts(items, "postId").indexOf("p02"));
        assertThat(p02.get("comments").asLong()).isZero();
    }

    @Test
    void postsByStatus_pagesOfTwo_listEveryPostOnceInOrderUntilTheCursorIsNull() {
        List<Projection> created = createdPosts();

        List<JsonNode> items = readAll("/posts?status=created", 2);

        List<String> expected = newestFirst(created).stream().map(Projection::postId).toList();
        assertThat(texts(items, "postId")).containsExactlyElementsOf(expected);
        // The two posts of the same millisecond: by post id, descending like the rest.
        assertThat(expected.indexOf("p09")).isLessThan(expected.indexOf("p08"));
        assertThat(expected.indexOf("p08")).isEqualTo(expected.indexOf("p09") + 1);
    }

    @Test
    void postsByStatus_otherStatuses_listOnlyTheirPosts() {
        createdPosts();

        assertThat(texts(readAll("/posts?status=updated", 2), "postId")).containsExactly("q01");
        var deleted = api.call("GET", "/posts?status=deleted");
        assertThat(texts(StreamSupport.stream(deleted.body().get("items").spliterator(), false).toList(), "status"))
                .containsExactly("deleted");
    }

    @Test
    void postsByStatus_noPosts_returnsEmptyListWithoutCursor() {
        var response = api.call("GET", "/posts?status=updated");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).isEqualTo("{\"items\":[],\"cursor\":null}");
    }

    @Test
    void postsByStatus_missingOrUnknownStatus_returns400NamingStatus() {
        for (String path : List.of("/posts", "/posts?status=", "/posts?status=archived", "/posts?status=Created")) {
            var response = api.call("GET", path);
            assertThat(response.status()).as(path).isEqualTo(400);
            assertThat(response.errorCode()).as(path).isEqualTo("bad_request");
            assertThat(response.errorField()).as(path).isEqualTo("status");
        }
    }

    @Test
    void postsByStatus_badLimit_returns400NamingLimit() {
        var response = api.call("GET", "/posts?status=created&limit=101");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.errorField()).isEqualTo("limit");
    }

    @Test
    void postsByStatus_forgedOrAlteredCursor_returns400NamingCursor() {
        createdPosts();
        String cursor = api.call("GET", "/posts?status=created&limit=2").text("cursor");
        assertThat(cursor).isNotNull();
        String altered = cursor.substring(0, 3) + (cursor.charAt(3) == 'A' ? 'B' : 'A') + cursor.substring(4);

        for (String bad : List.of("abc.def", "not-a-cursor", altered)) {
            var response = api.call("GET", "/posts?status=created&cursor=" + encode(bad));
            assertThat(response.status()).as(bad).isEqualTo(400);
            assertThat(response.errorCode()).as(bad).isEqualTo("bad_request");
            assertThat(response.errorField()).as(bad).isEqualTo("cursor");
        }
    }

    @Test
    void postsByStatus_cursorOfAnotherStatusOrList_returns400NamingCursor() {
        createdPosts();
        put(new Entry("i1", "A", 5, Selectors.BACK_CATALOGUE));
        put(new Entry("i2", "B", 6, Selectors.BACK_CATALOGUE));
        String created = api.call("GET", "/posts?status=created&limit=2").text("cursor");
        String selector = api.call("GET", "/selectors/back-catalogue?limit=1").text("cursor");
        assertThat(created).isNotNull();
        assertThat(selector).isNotNull();

        var otherStatus = api.call("GET", "/posts?status=updated&cursor=" + encode(created));
        var otherList = api.call("GET", "/posts?status=created&cursor=" + encode(selector));
        var backwards = api.call("GET", "/selectors/back-catalogue?cursor=" + encode(created));

        for (var response : List.of(otherStatus, otherList, backwards)) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.errorCode()).isEqualTo("bad_request");
            assertThat(response.errorField()).isEqualTo("cursor");
        }
    }

    // --- GET /selectors/{selector} -------------------------------------------------------------------------

    private List<Entry> backCatalogue() {
        List<Entry> entries = List.of(
                new Entry("item-a", "Alpha", 500, Selectors.BACK_CATALOGUE),
                new Entry("item-b", "Bravo", 90, Selectors.BACK_CATALOGUE),
                new Entry("item-c", null, 1_000_000_000, Selectors.BACK_CATALOGUE),
                new Entry("item-d", "Delta", 0, Selectors.BACK_CATALOGUE),
                new Entry("item-e", "Echo", 300, Selectors.BACK_CATALOGUE),
                new Entry("item-f", "Foxtrot", 77, Selectors.BACK_CATALOGUE),
                new Entry("item-g", "Golf", 150, Selectors.BACK_CATALOGUE),
                new Entry("item-h", "Hotel", 300, Selectors.BACK_CATALOGUE));
        entries.forEach(this::put);
        put(new Entry("cycle-1", "In a cycle", 400, "global-cycle:3"));
        return entries;
    }

    private static List<String> byScore(List<Entry> entries) {
        return entries.stream()
                .sorted(Comparator.comparingLong(Entry::score).thenComparing(Entry::itemId).reversed())
                .map(Entry::itemId)
                .toList();
    }

    @Test
    void selector_backCatalogue_mergesEveryShardByScoreWithTheContractFields() {
        List<Entry> entries = backCatalogue();
        Set<String> partitions = entries.stream().map(Entry::partition).collect(Collectors.toCollection(TreeSet::new));
        assertThat(partitions).containsExactly("back-catalogue:0", "back-catalogue:1", "back-catalogue:2", "back-catalogue:3");
        // The equal scores sit in different shards: the index does not order ties within one partition.
        assertThat(new Entry("item-e", null, 0, Selectors.BACK_CATALOGUE).partition())
                .isNotEqualTo(new Entry("item-h", null, 0, Selectors.BACK_CATALOGUE).partition());

        var response = api.call("GET", "/selectors/back-catalogue");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().get("cursor").isNull()).isTrue();
        List<JsonNode> items = StreamSupport.stream(response.body().get("items").spliterator(), false).toList();
        assertThat(texts(items, "itemId")).containsExactlyElementsOf(byScore(entries));
        assertThat(items).allSatisfy(item -> assertThat(fieldNames(item)).containsExactly("itemId", "title", "score"));
        assertThat(items.get(0).toString()).isEqualTo("{\"itemId\":\"item-c\",\"title\":null,\"score\":1000000000}");
        assertThat(items.get(1).toString()).isEqualTo("{\"itemId\":\"item-a\",\"title\":\"Alpha\",\"score\":500}");
    }

    @Test
    void selector_backCatalogueInPagesOfThree_listsEveryItemOnceInOrder() {
        List<Entry> entries = backCatalogue();

        List<JsonNode> items = readAll("/selectors/back-catalogue", 3);

        assertThat(texts(items, "itemId")).containsExactlyElementsOf(byScore(entries));
    }

    @Test
    void selector_cycle_readsItsOnePartitionByScore() {
        backCatalogue();
        put(new Entry("cycle-2", "Second", 900, "global-cycle:3"));
        put(new Entry("cycle-3", null, 10, "global-cycle:3"));
        put(new Entry("other-cycle", "Other", 950, "global-cycle:4"));

        List<JsonNode> items = readAll("/selectors/global-cycle:3", 2);

        assertThat(texts(items, "itemId")).containsExactly("cycle-2", "cycle-1", "cycle-3");
        assertThat(items.get(2).toString()).isEqualTo("{\"itemId\":\"cycle-3\",\"title\":null,\"score\":10}");
    }

    @Test
    void selector_withoutEntries_returnsEmptyListWithoutCursor() {
        backCatalogue();

        for (String selector : List.of("user-cycle:9", "global-cycle:0")) {
            var response = api.call("GET", "/selectors/" + selector);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body().toString()).isEqualTo("{\"items\":[],\"cursor\":null}");
        }
    }

    @Test
    void selector_notASelector_returns400NamingSelector() {
        for (String selector : List.of("back-catalogue:2", "nope", "global-cycle:", "global-cycle:01", "user-cycle:x")) {
            var response = api.call("GET", "/selectors/" + selector);
            assertThat(response.status()).as(selector).isEqualTo(400);
            assertThat(response.errorCode()).as(selector).isEqualTo("validation_failed");
            assertThat(response.errorField()).as(selector).isEqualTo("selector");
        }
    }

    @Test
    void selector_cursorOfAnotherSelector_returns400NamingCursor() {
        put(new Entry("cycle-1", "A", 1, "global-cycle:1"));
        put(new Entry("cycle-2", "B", 2, "global-cycle:1"));
        String cursor = api.call("GET", "/selectors/global-cycle:1?limit=1").text("cursor");
        assertThat(cursor).isNotNull();

        var response = api.call("GET", "/selectors/global-cycle:2?cursor=" + encode(cursor));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.errorField()).isEqualTo("cursor");
    }
}
