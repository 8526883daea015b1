package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableDefinition;
import io.tally.stream.engine.Watermarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A table for the watermark pruner's tests, with a stream that lists one shard: derived items with a live watermark
 * (that shard's) and a stale one (of a shard the listing does not hold).
 */
final class PrunerTable {
    static final String GONE_SHARD = "shardId-00000009-gone";
    static final String GONE = Watermarks.attributeName(GONE_SHARD);
    /**
     * Two more watermarks of gone shards each item holds: an item keeps two (WatermarkRemovals), so with three the
     * pruner removes them all.
     */
    static final List<String> GONE_BEFORE = List.of(Watermarks.attributeName("shardId-00000007-gone"),
            Watermarks.attributeName("shardId-00000008-gone"));
    private static final AtomicInteger TABLES = new AtomicInteger();

    final DynamoDbClient dynamo;
    final String name;
    final String liveShard;

    PrunerTable(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String prefix) {
        this.dynamo = dynamo;
        this.name = prefix + "-" + TABLES.incrementAndGet();
        dynamo.createTable(TableDefinition.createTableRequest(name));
        // A write, so that the stream has a shard.
        dynamo.putItem(r -> r.tableName(name).item(Map.of("pk", s("USER#base"), "sk", s("#METADATA#base"))));
        String streamArn = dynamo.describeTable(r -> r.tableName(name)).table().latestStreamArn();
        liveShard = streams.describeStream(r -> r.streamArn(streamArn)).streamDescription().shards().get(0).shardId();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** {@code count} user stats items, each with a counter, the live shard's watermark and three of gone shards. */
    List<Key> putDerived(int count) {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Key key = new Key(String.format("USER#u%03d", i), "#STATS#");
            Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
            item.put("entityType", s("UserStats"));
            item.put("posts", AttributeValue.fromN("3"));
            item.put(Watermarks.attributeName(liveShard), s("0000000000000000000000000000000000000042"));
            item.put(GONE, s("0000000000000000000000000000000000000041"));
            GONE_BEFORE.forEach(gone -> item.put(gone, s("0000000000000000000000000000000000000040")));
            dynamo.putItem(r -> r.tableName(name).item(item));
            keys.add(key);
        }
        return keys;
    }

    /** The cursor of a shard, last updated at {@code updatedAt}. */
    Key putCursor(String shardId, String updatedAt) {
        Key key = ShardCursorItem.key(Watermarks.token(shardId));
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put("entityType", s(ShardCursorItem.TYPE.attributeValue()));
        item.put(ShardCursorItem.SHARD_ID, s(shardId));
        item.put(ShardCursorItem.UPDATED_AT, s(updatedAt));
        dynamo.putItem(r -> r.tableName(name).item(item));
        return key;
    }

    Map<String, AttributeValue> get(Key key) {
        return dynamo.getItem(r -> r.tableName(name).consistentRead(true).key(key.toAttributeMap())).item();
    }

    /** Whether the item still has the gone shard's watermark. */
    boolean stale(Key key) {
        return get(key).containsKey(GONE);
    }

    /** The items that still have the gone shard's watermark. */
    List<Key> staleItems() {
        List<Key> stale = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(name).consistentRead(true)).items().forEach(item -> {
            if (item.containsKey(GONE)) {
                stale.add(Key.of(item));
            }
        });
        return stale;
    }
}
