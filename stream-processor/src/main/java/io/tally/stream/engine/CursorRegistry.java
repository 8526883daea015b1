package io.tally.stream.engine;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Enters shard cursors in the cursor registry ({@link ShardCursorItem#registryKey}): the entry, then the cursor's
 * {@link ShardCursorItem#REGISTERED} mark, so that a registration cut short is made again by the shard's next claim
 * (an entry is written with a plain PutItem: writing it twice is harmless). Two writes once in a shard's life. The
 * watermark pruner reads the registry with a Query of each of its partitions instead of scanning the table for
 * cursors, and enters the cursors it finds without a mark (those of an engine before the registry).
 */
public final class CursorRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(CursorRegistry.class);

    private CursorRegistry() {
    }

    /** Whether a cursor item (as read or returned by a write) still needs its registry entry. */
    public static boolean needsEntry(Map<String, AttributeValue> cursor) {
        return cursor == null || !cursor.containsKey(ShardCursorItem.REGISTERED);
    }

    /**
     * Enters the cursor of {@code shardId} (its token {@code token}) and marks it. A failure is logged and left to
     * the next claim: the registry serves the pruner's check, never a batch.
     *
     * @return whether the entry and the mark were written
     */
    public static boolean register(DynamoDbClient client, String table, String shardId, String token, Instant now) {
        Map<String, AttributeValue> entry = new HashMap<>(ShardCursorItem.registryKey(token).toAttributeMap());
        entry.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(ShardCursorItem.TYPE.attributeValue()));
        entry.put(ShardCursorItem.SHARD_ID, AttributeValue.fromS(shardId));
        entry.put(ShardCursorItem.UPDATED_AT, AttributeValue.fromS(Timestamps.format(now)));
        try {
            client.putItem(r -> r.tableName(table).item(entry));
            client.updateItem(r -> r.tableName(table).key(ShardCursorItem.key(token).toAttributeMap())
                    .updateExpression("SET #registered = :true")
                    .conditionExpression("attribute_exists(#pk)")
                    .expressionAttributeNames(Map.of("#registered", ShardCursorItem.REGISTERED,
                            "#pk", TableSchema.PK))
                    .expressionAttributeValues(Map.of(":true", AttributeValue.fromBool(true))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            // The cursor is gone (the pruner deleted it): nothing to mark.
            return false;
        } catch (SdkException e) {
            LOG.warn("the cursor of shard {} could not be entered in the cursor registry; its next claim tries again",
                    shardId, e);
            return false;
        }
    }
}
