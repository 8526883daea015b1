package io.tally.stream.engine;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The requests that enter a shard cursor in the cursor registry ({@link ShardCursorItem#registryKey}): the entry, then
 * the cursor's {@link ShardCursorItem#REGISTERED} mark, so that a registration cut short is made again (an entry is
 * written with a plain PutItem: writing it twice is harmless). Two writes once in a shard's life: a stream processor's
 * claim makes them when it finds its cursor without the mark ({@link DynamoDbShardCursors}), the watermark pruner when
 * it meets such a cursor of a live shard (one written by an engine before the registry). The pruner reads the registry
 * with a Query of each of its partitions instead of scanning the table for cursors. Each caller sends the requests
 * itself: they are its function's operations.
 */
public final class CursorRegistry {
    private CursorRegistry() {
    }

    /** Whether a cursor item (as read, or as a write returned it) still needs its registry entry. */
    public static boolean needsEntry(Map<String, AttributeValue> cursor) {
        return cursor == null || !cursor.containsKey(ShardCursorItem.REGISTERED);
    }

    /** The registry entry of the cursor of {@code shardId}, whose token is {@code token}. */
    public static PutItemRequest entry(String table, String shardId, String token, Instant now) {
        Map<String, AttributeValue> entry = new HashMap<>(ShardCursorItem.registryKey(token).toAttributeMap());
        entry.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(ShardCursorItem.TYPE.attributeValue()));
        entry.put(ShardCursorItem.SHARD_ID, AttributeValue.fromS(shardId));
        entry.put(ShardCursorItem.UPDATED_AT, AttributeValue.fromS(Timestamps.format(now)));
        return PutItemRequest.builder().tableName(table).item(entry).build();
    }

    /** The mark that the cursor of the shard with this token has its entry; refused if the cursor is gone. */
    public static UpdateItemRequest mark(String table, String token) {
        return UpdateItemRequest.builder().tableName(table).key(ShardCursorItem.key(token).toAttributeMap())
                .updateExpression("SET #registered = :true")
                .conditionExpression("attribute_exists(#pk)")
                .expressionAttributeNames(Map.of("#registered", ShardCursorItem.REGISTERED, "#pk", TableSchema.PK))
                .expressionAttributeValues(Map.of(":true", AttributeValue.fromBool(true)))
                .build();
    }
}
