package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.Key;
import io.tally.core.TableDefinition;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Router;
import io.tally.core.view.CounterViewTest.Pick;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * A projection's list route against DynamoDB Local embedded: the entries of one partition in sort key order, page by
 * page, none skipped or repeated; other items of the partition and the emptied items of removed entries left out; a
 * cursor works only for its own list.
 */
class ProjectionListTest {
    private static final String TABLE = "projection-lists";
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;

    /** A user's pick as a card: the item and its weight. */
    public record PickCard(String itemId, long weight) {
    }

    static final ProjectionView<Pick, PickCard> CARDS = ProjectionView.over(Pick.SCHEMA, PickCard.class)
            .key("PICKCARDS#<userId> / <itemId>", pick -> new Key("PICKCARDS#" + pick.userId(), pick.itemId()))
            .project(pick -> new PickCard(pick.itemId(), pick.weight())).revision(Pick::weight)
            .list("/users/{userId}/cards", Access.READ_SIDE, ids -> "PICKCARDS#" + ids.get("userId"), false, null)
            .build();
    static final ProjectionView<Pick, PickCard> LATEST = ProjectionView.over(Pick.SCHEMA, PickCard.class)
            .key("PICKCARDS#<userId> / <itemId>", pick -> new Key("PICKCARDS#" + pick.userId(), pick.itemId()))
            .project(pick -> new PickCard(pick.itemId(), pick.weight())).revision(Pick::weight)
            .list("/users/{userId}/latest", Access.READ_SIDE, ids -> "PICKCARDS#" + ids.get("userId"), true,
                    "A user's cards, last first")
            .build();

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
        dynamo.createTable(TableDefinition.createTableRequest(TABLE));
        // u1: seven cards, between them an item of another type and the emptied item of a removed card.
        for (int i = 1; i <= 7; i++) {
            put("PICKCARDS#u1", "i" + i, "PickCard", Map.of("itemId", AttributeValue.fromS("i" + i),
                    "weight", AttributeValue.fromN(Integer.toString(i))));
        }
        put("PICKCARDS#u1", "i3x", "SomethingElse", Map.of("itemId", AttributeValue.fromS("other")));
        put("PICKCARDS#u1", "i5x", "PickCard", Map.of("srcRev", AttributeValue.fromN("9")));
        put("PICKCARDS#u2", "i1", "PickCard", Map.of("itemId", AttributeValue.fromS("i1"),
                "weight", AttributeValue.fromN("1")));
        // u3: 1,500 emptied items of removed cards, then one card.
        for (int i = 0; i < 1_500; i++) {
            put("PICKCARDS#u3", String.format("a%05d", i), "PickCard", Map.of("srcRev", AttributeValue.fromN("3")));
        }
        put("PICKCARDS#u3", "z", "PickCard", Map.of("itemId", AttributeValue.fromS("z"),
                "weight", AttributeValue.fromN("1")));
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    private static void put(String pk, String sk, String type, Map<String, AttributeValue> fields) {
        Map<String, AttributeValue> item = new HashMap<>(new Key(pk, sk).toAttributeMap());
        item.put("entityType", AttributeValue.fromS(type));
        item.putAll(fields);
        dynamo.putItem(r -> r.tableName(TABLE).item(item));
    }

    private static Router router() {
        Router router = new Router();
        ViewRoutes.register(router, dynamo, TABLE, ViewRoutesTest.CURSORS, (type, id) -> false,
                List.of(CARDS, LATEST), List.of());
        return router;
    }

    private static JsonNode get(Router router, String path, Map<String, String> query) {
        Router.Match match = router.match("GET", path);
        ApiResponse response = match.handler().handle(new ApiRequest("GET", path, match.pathParameters(), query,
                Map.of(), null));
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    /** Every page of a list, by following its cursor: the items' ids in order. */
    private static List<String> all(Router router, String path, int limit) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, String> query = new HashMap<>(Map.of("limit", Integer.toString(limit)));
            if (cursor != null) {
                query.put("cursor", cursor);
            }
            JsonNode page = get(router, path, query);
            assertThat(page.get("items").size()).isLessThanOrEqualTo(limit);
            page.get("items").forEach(item -> ids.add(item.get("itemId").asText()));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
            assertThat(++pages).isLessThan(20);
        } while (cursor != null);
        return ids;
    }

    @Test
    void pages_inSortKeyOrder_skipOtherTypesAndEmptiedEntries_noneRepeated() {
        Router router = router();
        assertThat(all(router, "/users/u1/cards", 2)).containsExactly("i1", "i2", "i3", "i4", "i5", "i6", "i7");
        assertThat(all(router, "/users/u1/cards", 3)).containsExactly("i1", "i2", "i3", "i4", "i5", "i6", "i7");
        assertThat(all(router, "/users/u1/latest", 4)).containsExactly("i7", "i6", "i5", "i4", "i3", "i2", "i1");
        assertThat(get(router, "/users/u1/cards", Map.of("limit", "2")).toString())
                .startsWith("{\"items\":[{\"itemId\":\"i1\",\"weight\":1},{\"itemId\":\"i2\",\"weight\":2}],\"cursor\":");
        assertThat(get(router, "/users/u2/cards", Map.of()).toString())
                .isEqualTo("{\"items\":[{\"itemId\":\"i1\",\"weight\":1}],\"cursor\":null}");
        assertThat(get(router, "/users/nobody/cards", Map.of()).toString()).isEqualTo("{\"items\":[],\"cursor\":null}");
    }

    @Test
    void aPartitionOfMostlyEmptiedItems_endsPagesShortWithACursor_eachReadingABoundedPart() {
        Router router = router();
        JsonNode first = get(router, "/users/u3/cards", Map.of("limit", "1"));
        assertThat(first.get("items")).isEmpty();
        assertThat(first.get("cursor").isNull()).isFalse();
        // 1,500 skipped items at most 5 queries of 200 a page: the card comes on the second page.
        assertThat(all(router, "/users/u3/cards", 1)).containsExactly("z");
    }

    @Test
    void aCursor_ofAnotherList_orForged_is400_anIdThatIsNoId_is400() {
        Router router = router();
        String cursor = get(router, "/users/u1/cards", Map.of("limit", "2")).get("cursor").asText();
        assertThat(refused(router, "/users/u2/cards", Map.of("cursor", cursor))).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(refused(router, "/users/u1/latest", Map.of("cursor", cursor))).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(refused(router, "/users/u1/cards", Map.of("cursor", "forged"))).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(refused(router, "/users/u1/cards", Map.of("limit", "0"))).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(refused(router, "/users/a%23b/cards", Map.of())).isEqualTo(ErrorCode.VALIDATION_FAILED);
    }

    @Test
    void register_documentsAPageOfTheProjection_aListWithoutAPartitionParameterIsRefused() {
        Router.Description cards = router().descriptions().get(0);
        assertThat(cards.template()).isEqualTo("/users/{userId}/cards");
        assertThat(cards.summary()).isEqualTo("The entries of PickCard of one partition");
        assertThat(router().descriptions().get(1).summary()).isEqualTo("A user's cards, last first");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProjectionView.over(Pick.SCHEMA, PickCard.class)
                .key("P / <itemId>", pick -> new Key("P", pick.itemId())).project(pick -> new PickCard("i", 1))
                .revision(Pick::weight).list("/cards", Access.READ_SIDE, ids -> "P", false, null).build())
                .hasMessageContaining("names its partition by a path parameter");
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
