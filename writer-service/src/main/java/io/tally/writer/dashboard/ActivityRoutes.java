package io.tally.writer.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.activity.ActivityFeed;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Json;
import io.tally.writer.http.Page;
import io.tally.writer.http.Router;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /activity?limit=N}: the newest entries of the recent-activity feed that the EventBridge subscriber example
 * keeps ({@link ActivityFeed}), newest first: {@code {"items": [{"eventId","detailType","time","detail"}]}}. One query
 * of the feed's partition, never a scan; the dashboard shows it. Registered only when the feed's table is configured.
 */
public final class ActivityRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbClient dynamo;
    private final String table;

    private ActivityRoutes(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    public static void register(Router router, DynamoDbClient dynamo, String table) {
        router.add("GET", "/activity", new ActivityRoutes(dynamo, table)::feed);
    }

    ApiResponse feed(ApiRequest request) {
        int limit = Page.limit(request);
        ObjectNode body = Json.object();
        ArrayNode items = body.putArray("items");
        dynamo.query(query -> query.tableName(table).keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(ActivityFeed.FEED_PK)))
                        .scanIndexForward(false).limit(limit))
                .items().forEach(item -> {
                    ObjectNode entry = items.addObject();
                    entry.put("eventId", item.get("eventId").s());
                    entry.put("detailType", item.get("detailType").s());
                    entry.put("time", item.get("time").s());
                    try {
                        entry.set("detail", JSON.readTree(item.get("detail").s()));
                    } catch (JsonProcessingException e) {
                        entry.putObject("detail");
                    }
                });
        return ApiResponse.ok(body).withHeader("Cache-Control", "no-store");
    }
}
