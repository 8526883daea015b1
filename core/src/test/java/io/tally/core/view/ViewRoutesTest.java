package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableDefinition;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Router;
import io.tally.core.view.CounterViewTest.Pick;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/** The generated read routes of views, against DynamoDB Local embedded: answers, the existence rules, overrides. */
class ViewRoutesTest {
    private static final EntityType THING = EntityType.base("ViewRoutesThing");
    static final io.tally.core.http.Cursors CURSORS = new io.tally.core.http.Cursors(
            "0123456789abcdef-views".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;
    private static int tables;
    private String table;
    /** The entities that exist, by "type/id", for {@link Existence#of}. */
    private final Set<String> existing = new java.util.HashSet<>();

    public record Zeros(String itemId, long picks) {
    }

    public record Counted(String itemId, long picks) {
    }

    public record Looked(String itemId, long picks, long weight, Double meanWeight) {
    }

    static final CounterView<Pick, Zeros> ZEROS = CounterView.over(Pick.SCHEMA, Zeros.class)
            .groupBy(Zeros::itemId, Pick::itemId).count(Zeros::picks)
            .read("/zeros/{itemId}", Access.READ_SIDE, Existence.zeros()).build();
    static final CounterView<Pick, Counted> COUNTED = CounterView.over(Pick.SCHEMA, Counted.class)
            .groupBy(Counted::itemId, Pick::itemId).count(Counted::picks)
            .read("/counted/{itemId}", Access.READ_SIDE, Existence.counted("item")).build();
    static final CounterView<Pick, Looked> LOOKED = CounterView.over(Pick.SCHEMA, Looked.class)
            .groupBy(Looked::itemId, Pick::itemId).count(Looked::picks).sum(Looked::weight, Pick::weight)
            .average(Looked::meanWeight, Pick::weight, "weights").shared()
            .read("/looked/{itemId}", Access.READ_SIDE, Existence.of(THING, "thing"), "A thing's picks").build();

    public record Pair(String userId, String itemId, long picks) {
    }

    public record Values(String userId, long picks, Map<String, Long> byStatus) {
    }

    static final CounterView<Pick, Values> VALUES = CounterView.over(Pick.SCHEMA, Values.class)
            .groupBy(Values::userId, Pick::userId).count(Values::picks).countPer(Values::byStatus, Pick::status,
                    "status:").shared().read("/values/{userId}", Access.READ_SIDE, Existence.zeros()).build();

    static final CounterView<Pick, Pair> PAIR = CounterView.over(Pick.SCHEMA, Pair.class)
            .groupBy(Pair::itemId, Pick::itemId).groupBy(Pair::userId, Pick::userId).count(Pair::picks).shared()
            .read("/users/{userId}/pairs/{itemId}", Access.READ_SIDE, Existence.of(THING, "thing")).build();

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    @BeforeEach
    void createTable() {
        table = "views-" + ++tables;
        dynamo.createTable(TableDefinition.createTableRequest(table));
    }

    private Router router(List<Router.Description> own) {
        Router router = new Router();
        ViewRoutes.register(router, dynamo, table, CURSORS, (type, id) -> existing.contains(type + "/" + id),
                List.of(ZEROS, COUNTED, LOOKED, PAIR, VALUES), own);
        return router;
    }

    private JsonNode get(Router router, String path) {
        Router.Match match = router.match("GET", path);
        ApiResponse response = match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), Map.of(),
                Map.of(), null));
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    private ErrorCode refused(Router router, String path) {
        Router.Match match = router.match("GET", path);
        try {
            match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), Map.of(), Map.of(), null));
        } catch (ApiException e) {
            return e.code();
        }
        throw new AssertionError("answered " + path);
    }

    private void put(Key key, String type, Map<String, Long> counters) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put("entityType", AttributeValue.fromS(type));
        counters.forEach((name, value) -> item.put(name, AttributeValue.fromN(Long.toString(value))));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    @Test
    void answers_theFiguresInTheAnswersOrder_withTheMean_summingTheSharedItemsPartials() {
        Key base = LOOKED.type().key("i1");
        put(base, "Looked", Map.of("picks", 2L, "weight", 7L, "weights", 7L));
        put(LOOKED.type().partial(base, "aaaaaaaaaaaaaaaa"), "Looked", Map.of("picks", 1L, "weight", 6L,
                "weights", 6L));

        assertThat(get(router(List.of()), "/looked/i1").toString())
                .isEqualTo("{\"itemId\":\"i1\",\"picks\":3,\"weight\":13,\"meanWeight\":4.33}");
    }

    @Test
    void aGroupOfTwoFields_readsTheItemOfBothIds_itsExistenceByTheFirst() {
        Key base = PAIR.type().key(PAIR.subject(List.of("i1", "u1"), null));
        assertThat(base).isEqualTo(new Key("PAIR#i1#u1", "#STATS#"));
        put(base, "Pair", Map.of("picks", 2L));
        put(PAIR.type().partial(base, "aaaaaaaaaaaaaaaa"), "Pair", Map.of("picks", 3L));
        put(PAIR.type().key("i1#u2"), "Pair", Map.of("picks", 7L));
        Router router = router(List.of());

        assertThat(get(router, "/users/u1/pairs/i1").toString())
                .isEqualTo("{\"userId\":\"u1\",\"itemId\":\"i1\",\"picks\":5}");
        assertThat(get(router, "/users/u2/pairs/i1").toString())
                .isEqualTo("{\"userId\":\"u2\",\"itemId\":\"i1\",\"picks\":7}");
        // No item: the thing of the first group (the item) exists or not.
        assertThat(refused(router, "/users/u1/pairs/t1")).isEqualTo(ErrorCode.NOT_FOUND);
        existing.add("ViewRoutesThing/t1");
        assertThat(get(router, "/users/u1/pairs/t1").toString())
                .isEqualTo("{\"userId\":\"u1\",\"itemId\":\"t1\",\"picks\":0}");
        assertThat(refused(router, "/users/a%23b/pairs/i1")).isEqualTo(ErrorCode.VALIDATION_FAILED);
    }

    @Test
    void countsPerValue_areSummedOverTheItemAndItsPartials_zerosLeftOut_valuesInOrder() {
        Key base = VALUES.type().key("u1");
        put(base, "Values", Map.of("picks", 4L, "status:live", 3L, "status:archived", 1L, "status:gone", 0L));
        put(VALUES.type().partial(base, "aaaaaaaaaaaaaaaa"), "Values", Map.of("picks", 1L, "status:archived", 2L,
                "status:live", -1L));
        Router router = router(List.of());

        assertThat(get(router, "/values/u1").toString())
                .isEqualTo("{\"userId\":\"u1\",\"picks\":5,\"byStatus\":{\"archived\":3,\"live\":2}}");
        assertThat(get(router, "/values/u2").toString())
                .isEqualTo("{\"userId\":\"u2\",\"picks\":0,\"byStatus\":{}}");
    }

    @Test
    void aGroupWithoutItem_answersAsItsExistenceSays() {
        Router router = router(List.of());
        existing.add("ViewRoutesThing/t1");

        assertThat(get(router, "/zeros/nothing").toString()).isEqualTo("{\"itemId\":\"nothing\",\"picks\":0}");
        assertThat(refused(router, "/counted/nothing")).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(get(router, "/looked/t1").toString())
                .isEqualTo("{\"itemId\":\"t1\",\"picks\":0,\"weight\":0,\"meanWeight\":null}");
        assertThat(refused(router, "/looked/t2")).isEqualTo(ErrorCode.NOT_FOUND);
        // Counted once, at zero now: it exists.
        put(COUNTED.type().key("gone"), "Counted", Map.of("picks", 0L));
        assertThat(get(router, "/counted/gone").toString()).isEqualTo("{\"itemId\":\"gone\",\"picks\":0}");
    }

    @Test
    void anIdThatIsNoId_is400_anItemOfAnotherType_isAnError_not500Figures() {
        Router router = router(List.of());
        assertThat(refused(router, "/zeros/a%23b")).isEqualTo(ErrorCode.VALIDATION_FAILED);
        put(ZEROS.type().key("mixed"), "SomethingElse", Map.of("picks", 1L));
        Router.Match match = router.match("GET", "/zeros/mixed");
        assertThatThrownBy(() -> match.handler().handle(new ApiRequest("GET", "/zeros/mixed", match.pathParameters(),
                Map.of(), Map.of(), null))).hasMessageContaining("SomethingElse");
    }

    @Test
    void register_aRouteTheDomainDeclared_isTheDomains_anotherDomainsRouteOfThePath_failsTheStart() {
        Router router = new Router();
        router.add("GET", "/zeros/{id}", Access.ADMIN, request -> ApiResponse.ok(Map.of()));
        ViewRoutes.register(router, dynamo, table, CURSORS, (type, id) -> false, List.of(ZEROS), router.descriptions());
        assertThat(router.descriptions()).singleElement().extracting(Router.Description::access)
                .isEqualTo(Access.ADMIN);

        Router other = new Router();
        other.add("GET", "/zeros/{thing}", Access.ADMIN, request -> ApiResponse.ok(Map.of()));
        assertThatThrownBy(() -> ViewRoutes.register(other, dynamo, table, CURSORS, (type, id) -> false, List.of(ZEROS),
                List.of())).hasMessageContaining("GET /zeros/{itemId}").hasMessageContaining("GET /zeros/{thing}");
    }

    @Test
    void checkUnique_aLaterRouteOfAViewsPath_failsTheStart_distinctPathsPass() {
        Router router = router(List.of());
        ViewRoutes.checkUnique(router);
        router.add("GET", "/looked/{thing}", Access.ADMIN, request -> ApiResponse.ok(Map.of()));

        assertThatThrownBy(() -> ViewRoutes.checkUnique(router)).hasMessageContaining("GET /looked/{itemId}")
                .hasMessageContaining("GET /looked/{thing}");
    }

    @Test
    void register_documentsTheRouteWithItsSummaryAndAnswer() {
        Router router = router(List.of());
        assertThat(router.descriptions()).extracting(Router.Description::template)
                .containsExactly("/zeros/{itemId}", "/counted/{itemId}", "/looked/{itemId}",
                        "/users/{userId}/pairs/{itemId}", "/values/{userId}");
        assertThat(router.descriptions().get(3).summary()).isEqualTo("The figures of Pair of one itemId and userId");
        Router.Description looked = router.descriptions().get(2);
        assertThat(looked.summary()).isEqualTo("A thing's picks");
        assertThat(looked.returns()).isEqualTo(Looked.class);
        assertThat(looked.access()).isEqualTo(Access.READ_SIDE);
    }
}
