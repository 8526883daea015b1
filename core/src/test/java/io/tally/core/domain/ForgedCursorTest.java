package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Ids;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.Cursors;
import io.tally.core.http.ErrorCode;
import io.tally.core.store.QueryPage;
import io.tally.core.users.UsersDomain;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * A cursor correctly signed (with a key that leaked, the development key say) but holding a key of another partition
 * than its list's: DynamoDB refuses the query, and the client gets a 400 naming the cursor, not a 500.
 */
class ForgedCursorTest {
    private static final Set<String> KEY = Set.of("pk", "sk");
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
        dynamo.createTable(TableDefinition.createTableRequest("cursors"));
        for (String partition : new String[] {"LIST#a", "LIST#b"}) {
            for (int i = 1; i <= 3; i++) {
                String sk = "ITEM#" + i;
                dynamo.putItem(r -> r.tableName("cursors").item(Map.of("pk", AttributeValue.fromS(partition),
                        "sk", AttributeValue.fromS(sk))));
            }
        }
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    private static BiFunction<Integer, Map<String, AttributeValue>, QueryPage> listA() {
        return (limit, start) -> QueryPage.of(dynamo.query(r -> r.tableName("cursors")
                .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk",
                        AttributeValue.fromS("LIST#a"))).exclusiveStartKey(start).limit(limit + 1)), limit, KEY);
    }

    private static ApiRequest withCursor(String cursor) {
        return new ApiRequest("GET", "/lists/a", Map.of(), cursor == null ? Map.of("limit", "1")
                : Map.of("limit", "1", "cursor", cursor), Map.of(), null);
    }

    @Test
    void aSignedCursorOfAnotherPartition_isABadRequestNamingTheCursor_andAnHonestOneStillPages() {
        Cursors cursors = new Cursors("tally-development-cursor-secret".getBytes(StandardCharsets.UTF_8));
        RouteContext context = new RouteContext(dynamo, "cursors", Clock.systemUTC(), Ids.timeOrdered(Clock.systemUTC()),
                cursors, ShardSettings.DEFAULTS, DomainRegistry.of(new UsersDomain()));
        String forged = cursors.encode("list:a", Map.of("pk", AttributeValue.fromS("LIST#b"),
                "sk", AttributeValue.fromS("ITEM#0")));
        // What DynamoDB says of such a query on its own: the refusal the route must not pass on as a 500.
        assertThatThrownBy(() -> listA().apply(1, Map.of("pk", AttributeValue.fromS("LIST#b"),
                "sk", AttributeValue.fromS("ITEM#0")))).isInstanceOf(DynamoDbException.class);
        assertThatThrownBy(() -> context.page(withCursor(forged), "list:a", KEY, listA(), item -> Map.of()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("cursor");
                });
        String next = context.page(withCursor(null), "list:a", KEY, listA(), item -> Map.of()).body()
                .get("cursor").asText();
        assertThat(next).isNotEqualTo("null");
        assertThat(context.page(withCursor(next), "list:a", KEY, listA(), item -> Map.of()).status()).isEqualTo(200);
    }
}
