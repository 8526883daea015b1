package io.tally.stream.engine;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link ShardCursors#lineage} on the cursor items of a DynamoDB table: a strongly consistent read of the shard's
 * cursor, and only for a shard whose lineage is not settled yet (once in its life), a read of its sole parent's cursor
 * and one write that settles it ({@code if_not_exists}: two environments settling one shard at once agree on the first
 * write, and the write returns the lineage that holds).
 */
final class CursorLineages {
    private final DynamoDbClient client;
    private final String table;

    CursorLineages(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    String lineage(String shardId, ShardParents parents) {
        String settled = ShardCursorItem.lineageOf(shardId, read(shardId));
        if (settled != null) {
            return settled;
        }
        Optional<String> parent = parents.soleParent(shardId);
        String inherited = parent.map(id -> ShardCursorItem.lineageOf(id, read(id))).orElse(null);
        try {
            Map<String, AttributeValue> stored = client.updateItem(UpdateItemRequest.builder()
                    .tableName(table)
                    .key(key(shardId))
                    .updateExpression("SET #type = if_not_exists(#type, :type), #shard = :shard,"
                            + " #lineage = if_not_exists(#lineage, :lineage)")
                    // Settled already, or nothing of the shard written: not a cursor an engine before lineages claimed
                    // since the read (its partials would be under the shard's own id).
                    .conditionExpression("attribute_exists(#lineage) OR (attribute_not_exists(#from)"
                            + " AND attribute_not_exists(#ack) AND attribute_not_exists(#pending))")
                    .expressionAttributeNames(Map.of("#type", TableSchema.ENTITY_TYPE, "#shard",
                            ShardCursorItem.SHARD_ID, "#lineage", ShardCursorItem.LINEAGE, "#from",
                            ShardCursorItem.CLAIMED_FROM, "#ack", ShardCursorItem.ACKNOWLEDGED, "#pending",
                            ShardCursorItem.PENDING))
                    .expressionAttributeValues(Map.of(
                            ":type", AttributeValue.fromS(ShardCursorItem.TYPE.attributeValue()),
                            ":shard", AttributeValue.fromS(shardId),
                            ":lineage", AttributeValue.fromS(inherited != null ? inherited : shardId)))
                    .returnValues(ReturnValue.UPDATED_NEW)
                    .build()).attributes();
            return stored.get(ShardCursorItem.LINEAGE).s();
        } catch (ConditionalCheckFailedException e) {
            return ShardCursorItem.lineageOf(shardId, read(shardId));
        }
    }

    private Map<String, AttributeValue> read(String shardId) {
        return client.getItem(r -> r.tableName(table).key(key(shardId)).consistentRead(true)
                .projectionExpression("#lineage, #from, #ack, #pending")
                .expressionAttributeNames(Map.of("#lineage", ShardCursorItem.LINEAGE, "#from",
                        ShardCursorItem.CLAIMED_FROM, "#ack", ShardCursorItem.ACKNOWLEDGED, "#pending",
                        ShardCursorItem.PENDING))).item();
    }

    private static Map<String, AttributeValue> key(String shardId) {
        return ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap();
    }
}
