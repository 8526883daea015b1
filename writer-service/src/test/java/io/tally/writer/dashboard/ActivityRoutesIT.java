package io.tally.writer.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.activity.ActivityFeed;
import io.tally.testkit.LocalDynamoDb;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /activity} against the feed's own table on DynamoDB Local: newest first, as many as asked. */
class ActivityRoutesIT {
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void feed_newestFirst_limited() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createActivityTable();
        for (int i = 1; i <= 3; i++) {
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item = ActivityFeed.feedItem(
                    "ev-" + i, "PostCreated", "2026-11-23T10:00:0" + i + ".000Z", "{\"n\":" + i + "}", NOW);
            dynamo.putItem(r -> r.tableName(table).item(item));
        }
        Router router = new Router();
        ActivityRoutes.register(router, new ActivityStore(dynamo, table));
        ApiRequest request = new ApiRequest("GET", "/activity", Map.of(), Map.of("limit", "2"), Map.of(), null);
        Router.Match match = router.match("GET", "/activity");

        ApiResponse response = match.handler().handle(request.withPathParameters(match.pathParameters()));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().path("items")).extracting(entry -> entry.path("eventId").asText())
                .containsExactly("ev-3", "ev-2");
    }
}
