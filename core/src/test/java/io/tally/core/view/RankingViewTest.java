package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.TableDefinition;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.Document;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * Rankings: their figures against a model of the current states, their entries' constant documents, and their read
 * route against DynamoDB Local embedded (the table's own index), against a sort of the figures written.
 */
class RankingViewTest {
    /** A user's mark of an item at an instant; hidden marks are not ranked. */
    public record Mark(String userId, String itemId, Instant createdAt, boolean hidden) {
        static final EntityType TYPE = EntityType.base("RankingViewMark");
        static final ItemSchema<Mark> SCHEMA = ItemSchema.of(Mark.class, TYPE,
                mark -> new Key("MARKS#" + mark.itemId(), "USER#" + mark.userId())).build();
    }

    public record ItemMarks(String itemId, long marks) {
    }

    public record TopMarked(String month, List<ItemMarks> items) {
    }

    public record AllTime(List<Weighed> items) {
    }

    public record Weighed(long weight, String userId) {
    }

    static final RankingView<Mark, TopMarked> TOP = RankingView.over(Mark.SCHEMA, TopMarked.class)
            .groupBy(ItemMarks::itemId, Mark::itemId).count(ItemMarks::marks)
            .bucket(TopMarked::month, Bucket.MONTH, Mark::createdAt).where(mark -> !mark.hidden())
            .read("/top/marked", Access.READ_SIDE, null).build();

    static final RankingView<Mark, AllTime> WEIGHED = RankingView.over(Mark.SCHEMA, AllTime.class)
            .groupBy(Weighed::userId, Mark::userId).sum(Weighed::weight, mark -> mark.itemId().length())
            .shards(1).defaultLimit(3).read("/top/weighed", Access.READ_SIDE, "Users by weight").build();

    private static final Instant T0 = Instant.parse("2026-10-30T22:00:00Z");
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    @Test
    void entries_areKeyedByGroupAndBucket_withAConstantDocumentInTheIndex() {
        DerivedType type = TOP.type();
        assertThat(type.key("i1#2026-11")).isEqualTo(new Key("TOPMARKED#i1", "MONTH#2026-11"));
        assertThat(type.counters()).containsExactly("data");
        assertThat(type.indexKeys()).containsExactly("selector");
        assertThat(type.hasConstantDocument()).isTrue();
        assertThat(TOP.document("i1#2026-11")).isEqualTo(Map.of("itemId", AttributeValue.fromS("i1"),
                "month", AttributeValue.fromS("2026-11"), "selector",
                AttributeValue.fromS("rank:TopMarked:2026-11:" + TOP.shardOf("i1"))));
        assertThat(WEIGHED.type().key("u1")).isEqualTo(new Key("ALLTIME#u1", "#RANK#"));
        assertThat(WEIGHED.partition(null, 0)).isEqualTo("rank:AllTime:0");
        // The shards spread: 40 groups land in every one of 4 partitions.
        assertThat(java.util.stream.IntStream.range(0, 40).map(i -> TOP.shardOf("item" + i)).distinct().count())
                .isEqualTo(4);
    }

    @Test
    void figures_followCreatesMovesFilterChangesAndDeletes_asTheModelOfCurrentStates() {
        Derivation derivation = Views.derivations(List.of(TOP, WEIGHED)).get(0);
        for (long seed = 1; seed <= 20; seed++) {
            RandomChanges.check(derivation, Mark.SCHEMA, seed, 300, 12, RankingViewTest::mark, RankingViewTest::model);
        }
    }

    @Test
    void documents_areWrittenAtRevisionZero_andNeverRemoved() {
        Derivation derivation = Views.derivations(List.of(TOP)).get(0);
        Mark november = new Mark("u1", "i1", Instant.parse("2026-11-03T10:00:00Z"), false);
        Mark december = new Mark("u1", "i1", Instant.parse("2026-12-01T00:00:00Z"), false);
        Key novemberEntry = TOP.type().key("i1#2026-11");
        Key decemberEntry = TOP.type().key("i1#2026-12");

        IntendedChanges created = derivation.derive("r1", null, Mark.SCHEMA.toItem(november));
        assertThat(created.documents().get(novemberEntry)).isEqualTo(new Document(TOP.type(),
                TOP.document("i1#2026-11"), 0));
        IntendedChanges moved = derivation.derive("r2", Mark.SCHEMA.toItem(november), Mark.SCHEMA.toItem(december));
        assertThat(moved.documents()).containsOnlyKeys(decemberEntry);
        assertThat(moved.counterDeltas()).containsEntry(CounterRef.of(TOP.type(), "i1#2026-11", "data"), -1L)
                .containsEntry(CounterRef.of(TOP.type(), "i1#2026-12", "data"), 1L);
        IntendedChanges hidden = derivation.derive("r3", Mark.SCHEMA.toItem(december),
                Mark.SCHEMA.toItem(new Mark("u1", "i1", december.createdAt(), true)));
        assertThat(hidden.documents()).isEmpty();
        IntendedChanges deleted = derivation.derive("r4", Mark.SCHEMA.toItem(december), null);
        assertThat(deleted.documents()).isEmpty();
        assertThat(deleted.counterDeltas()).containsOnly(Map.entry(CounterRef.of(TOP.type(), "i1#2026-12", "data"),
                -1L));
        // A change that keeps the entry restates its document: the engine leaves it out.
        IntendedChanges kept = derivation.derive("r5", Mark.SCHEMA.toItem(december),
                Mark.SCHEMA.toItem(new Mark("u2", "i1", december.createdAt(), false)));
        assertThat(kept.restated()).containsExactly(decemberEntry);
    }

    @Test
    void route_answersTheTop_mostFirst_tiesByGroupId_zerosLeftOut_acrossEveryShard() {
        String table = "ranking-top";
        dynamo.createTable(TableDefinition.createTableRequest(table));
        Random random = new Random(7);
        Map<String, Long> november = new HashMap<>();
        for (int i = 0; i < 60; i++) {
            // Few distinct figures, so ties at the last place fall across partitions; some entries back at 0.
            november.put("item" + i, (long) random.nextInt(4));
        }
        november.forEach((itemId, marks) -> put(table, TOP, itemId + "#2026-11", marks));
        put(table, TOP, "item0#2026-10", 9);
        Router router = new Router();
        ViewRoutes.register(router, dynamo, table, ViewRoutesTest.CURSORS, (type, id) -> false, List.of(TOP, WEIGHED), List.of());

        for (int limit : new int[] {1, 2, 3, 5, 7, 10, 25, 60, 100}) {
            List<String> expected = november.entrySet().stream().filter(entry -> entry.getValue() > 0)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(limit).map(entry -> "{\"itemId\":\"" + entry.getKey() + "\",\"marks\":" + entry.getValue()
                            + "}").toList();
            assertThat(get(router, "/top/marked", Map.of("month", "2026-11", "limit", Integer.toString(limit)))
                    .toString()).as("limit %d", limit)
                    .isEqualTo("{\"month\":\"2026-11\",\"items\":[" + String.join(",", expected) + "]}");
        }
        assertThat(get(router, "/top/marked", Map.of("month", "2026-11")).path("items")).hasSize(10);
        assertThat(get(router, "/top/marked", Map.of("month", "2026-10")).toString())
                .isEqualTo("{\"month\":\"2026-10\",\"items\":[{\"itemId\":\"item0\",\"marks\":9}]}");
        assertThat(get(router, "/top/marked", Map.of("month", "2027-01")).toString())
                .isEqualTo("{\"month\":\"2027-01\",\"items\":[]}");
        for (Map<String, String> bad : List.of(Map.<String, String>of(), Map.of("month", "2026-13"),
                Map.of("month", "2026-1"), Map.of("month", "2026-11", "limit", "0"),
                Map.of("month", "2026-11", "limit", "101"), Map.of("month", "2026-11", "limit", "x"))) {
            assertThat(refused(router, "/top/marked", bad)).as(bad.toString()).isEqualTo(ErrorCode.BAD_REQUEST);
        }

        put(table, WEIGHED, "u1", 5);
        put(table, WEIGHED, "u2", 7);
        put(table, WEIGHED, "u3", 5);
        put(table, WEIGHED, "u4", 1);
        assertThat(get(router, "/top/weighed", Map.of()).toString()).isEqualTo("{\"items\":[{\"weight\":7,"
                + "\"userId\":\"u2\"},{\"weight\":5,\"userId\":\"u1\"},{\"weight\":5,\"userId\":\"u3\"}]}");
        assertThat(router.descriptions()).anySatisfy(route -> {
            assertThat(route.template()).isEqualTo("/top/marked");
            assertThat(route.query()).containsExactly("month", "limit");
        });
    }

    @Test
    void reads_topOfAPartitionAboveZeroAndItsTies_orderedByFigureThenId_andKnowWhereTiesMayHide() {
        var top = RankingReads.top("t", "chart:2024-03:2", 10);
        assertThat(top.indexName()).isEqualTo("CycleSelector");
        assertThat(top.keyConditionExpression()).isEqualTo("#selector = :p AND #data > :zero");
        assertThat(top.scanIndexForward()).isFalse();
        assertThat(top.limit()).isEqualTo(10);
        assertThat(top.expressionAttributeNames()).containsEntry("#selector", "selector").containsEntry("#data", "data");
        var ties = RankingReads.ties("t", "chart:2024-03:2", 5);
        assertThat(ties.keyConditionExpression()).isEqualTo("#selector = :p AND #data = :n");
        assertThat(ties.expressionAttributeValues()).containsEntry(":n", AttributeValue.fromN("5"));
        assertThat(ties.limit()).isNull();

        List<RankingReads.Ranked> ranked = RankingReads.top(List.of(new RankingReads.Ranked("b", 5),
                new RankingReads.Ranked("a", 5), new RankingReads.Ranked("c", 9), new RankingReads.Ranked("d", 1)), 3);
        assertThat(ranked).containsExactly(new RankingReads.Ranked("c", 9), new RankingReads.Ranked("a", 5),
                new RankingReads.Ranked("b", 5));
        assertThat(RankingReads.mayHideTies(ranked, 3, 5)).isTrue();
        assertThat(RankingReads.mayHideTies(ranked, 3, 4)).isFalse();
        assertThat(RankingReads.mayHideTies(ranked, 4, 5)).isFalse();
    }

    @Test
    void declarations_thatCannotWork_areRefusedSayingWhy() {
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, ItemMarks.class))
                .hasMessageContaining("a List of a record");
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, TopMarked.class).groupBy(ItemMarks::itemId,
                Mark::itemId).count(ItemMarks::marks).build()).hasMessageContaining("declared with bucket(...)");
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, AllTime.class).groupBy(ItemMarks::itemId,
                Mark::itemId)).hasMessageContaining("not of the entry Weighed");
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, AllTime.class).groupBy(Weighed::userId,
                Mark::userId).build()).hasMessageContaining("counts or sums");
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, AllTime.class).groupBy(Weighed::userId, Mark::userId)
                .count(Weighed::weight).read("/top/{userId}", Access.READ_SIDE, null).build())
                .hasMessageContaining("no path parameter");
        assertThatThrownBy(() -> RankingView.over(Mark.SCHEMA, AllTime.class).shards(0))
                .hasMessageContaining("1..100");
    }

    private static Mark mark(Random random) {
        return new Mark("u" + random.nextInt(3), "i" + random.nextInt(3),
                T0.plusSeconds(3_600L * random.nextInt(6)), random.nextInt(4) == 0);
    }

    /** The figures from the definitions: per item and UTC month, the marks not hidden; per user, their items' lengths. */
    private static Map<CounterRef, Long> model(java.util.Collection<Mark> marks) {
        Map<CounterRef, Long> figures = new HashMap<>();
        for (Mark mark : marks) {
            String month = mark.createdAt().toString().substring(0, 7);
            if (!mark.hidden()) {
                figures.merge(CounterRef.of(TOP.type(), mark.itemId() + "#" + month, "data"), 1L, Long::sum);
            }
            figures.merge(CounterRef.of(WEIGHED.type(), mark.userId(), "data"), (long) mark.itemId().length(),
                    Long::sum);
        }
        return figures;
    }

    private static void put(String table, RankingView<?, ?> view, String subject, long figure) {
        Map<String, AttributeValue> item = new HashMap<>(view.type().key(subject).toAttributeMap());
        item.put("entityType", AttributeValue.fromS(view.type().name()));
        item.put("data", AttributeValue.fromN(Long.toString(figure)));
        item.putAll(view.document(subject));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private static JsonNode get(Router router, String path, Map<String, String> query) {
        Router.Match match = router.match("GET", path);
        ApiResponse response = match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), query,
                Map.of(), null));
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    private static ErrorCode refused(Router router, String path, Map<String, String> query) {
        Router.Match match = router.match("GET", path);
        try {
            match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), query, Map.of(), null));
        } catch (ApiException e) {
            return e.code();
        }
        throw new AssertionError("answered " + path + " " + query);
    }
}
