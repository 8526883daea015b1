package io.tally.writer.dashboard;

import io.tally.core.activity.ActivityFeed;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Reads the subscriber example's feed table ({@link ActivityFeed}): one query of a feed partition, never a scan. */
public final class ActivityStore {
    private final DynamoDbClient dynamo;
    private final String table;

    /** {@code table}: the feed's own table (not Tally's). */
    public ActivityStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** Up to {@code limit} entries of the whole feed, newest first. */
    List<Map<String, AttributeValue>> newest(int limit) {
        return newest(ActivityFeed.FEED_PK, limit);
    }

    /** Up to {@code limit} entries of the public feed (events about public data only), newest first. */
    List<Map<String, AttributeValue>> newestPublic(int limit) {
        return newest(ActivityFeed.PUBLIC_FEED_PK, limit);
    }

    private List<Map<String, AttributeValue>> newest(String partition, int limit) {
        return dynamo.query(query -> query.tableName(table).keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                        .scanIndexForward(false).limit(limit))
                .items();
    }
}
