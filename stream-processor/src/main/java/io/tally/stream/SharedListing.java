package io.tally.stream;

import io.tally.core.ShardToken;
import io.tally.core.StreamListingItem;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The shard listing every execution environment of the stream processor shares ({@link StreamListingItem}): read by
 * a cold environment, or when it is delivered a shard it does not know, and written by the environment that listed the
 * stream, so that the others need not list it again.
 */
final class SharedListing {
    private final DynamoDbClient dynamo;
    private final String table;

    SharedListing(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** The tokens of the shards the shared listing of the stream holds; empty when there is none. */
    Set<String> read(String streamArn) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table)
                .key(StreamListingItem.key(streamArn).toAttributeMap()).consistentRead(true)).item();
        AttributeValue shards = item == null ? null : item.get(StreamListingItem.SHARDS);
        return shards == null || !shards.hasSs() ? Set.of() : Set.copyOf(shards.ss());
    }

    /** Stores a listing of the stream, made now: the tokens of its shards. */
    void write(String streamArn, Set<String> tokens, Instant now) {
        if (tokens.isEmpty()) {
            return;
        }
        Map<String, AttributeValue> item = new HashMap<>(StreamListingItem.key(streamArn).toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(StreamListingItem.TYPE.attributeValue()));
        item.put(StreamListingItem.STREAM_ARN, AttributeValue.fromS(streamArn));
        item.put(StreamListingItem.SHARDS, AttributeValue.fromSs(tokens.stream().sorted().toList()));
        item.put(StreamListingItem.LISTED_AT, AttributeValue.fromS(now.toString()));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    static String token(String shardId) {
        return ShardToken.of(shardId);
    }
}
