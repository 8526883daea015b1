package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.read.BatchReads;
import io.tally.stream.engine.Watermarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * What the stream processor's shard cursors ({@link ShardCursorItem}) say it has applied, read before the scan: every
 * record of a shard up to its {@code acknowledged} record, and every record before its {@code pending} one. A derived
 * item whose watermarks are behind the records that change it, although the cursors read before the scan say those
 * records were applied, is no longer waiting for the stream processor: it was deleted or changed by something else
 * (or a write of it was given up on), and it compares as it is. Without this, a deleted derived item stayed "behind"
 * on every run of {@code verify}, however drained the stream processor was.
 *
 * <p>Why before the scan: the engine writes a batch's derived items before it stores the batch's progress in the
 * cursor, so a record the cursor showed applied before the scan began is reflected in every item the scan reads. A
 * cursor read later could name records applied after the scan read an item. A shard without a cursor in the cursor
 * registry (an engine with in-memory cursors, or none yet) is judged by the watermarks alone, as before.
 */
final class AppliedRecords {
    /** Nothing known: every item is judged by its watermarks. */
    static final AppliedRecords NONE = new AppliedRecords(Map.of());

    /**
     * Where each shard stands, by shard token: its acknowledged record and its pending one (each may be null), and its
     * lineage (null: its own id).
     */
    private final Map<String, Progress> byToken;

    private record Progress(String acknowledged, String pending, String lineage) {
    }

    private AppliedRecords(Map<String, Progress> byToken) {
        this.byToken = Map.copyOf(byToken);
    }

    /** The cursors of the cursor registry: a Query of each of its partitions, then the cursors by key. */
    static AppliedRecords read(DynamoDbClient dynamo, String table) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (String partition : ShardCursorItem.registryPartitions()) {
            dynamo.queryPaginator(r -> r.tableName(table).consistentRead(true).keyConditionExpression("#pk = :pk")
                            .expressionAttributeNames(Map.of("#pk", TableSchema.PK))
                            .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition))))
                    .items().forEach(entry -> keys.add(ShardCursorItem.key(ShardCursorItem.registeredToken(
                            entry.get(TableSchema.SK).s())).toAttributeMap()));
        }
        Map<String, Progress> byToken = new HashMap<>();
        for (int from = 0; from < keys.size(); from += 100) {
            List<Map<String, AttributeValue>> chunk = keys.subList(from, Math.min(keys.size(), from + 100));
            for (Map<String, AttributeValue> cursor : BatchReads.getAll(dynamo, table, BatchGetItemRequest.builder()
                    .requestItems(Map.of(table, KeysAndAttributes.builder().keys(chunk).consistentRead(true).build()))
                    .build())) {
                String pk = Key.of(cursor).pk();
                String shardId = string(cursor, ShardCursorItem.SHARD_ID);
                byToken.put(pk.substring(ShardCursorItem.PREFIX.length()), new Progress(
                        string(cursor, ShardCursorItem.ACKNOWLEDGED), string(cursor, ShardCursorItem.PENDING),
                        shardId == null ? null : ShardCursorItem.lineageOf(shardId, cursor)));
            }
        }
        return new AppliedRecords(byToken);
    }

    /** Cursors as given: shard id to its acknowledged and pending records (zero-padded; either may be null). */
    static AppliedRecords of(Map<String, String[]> byShardId) {
        Map<String, Progress> byToken = new HashMap<>();
        byShardId.forEach((shardId, marks) -> byToken.put(Watermarks.token(shardId),
                new Progress(marks[0], marks[1], null)));
        return new AppliedRecords(byToken);
    }

    /** Whether the cursor of {@code shardId} says the record {@code sequence} (zero-padded) is applied. */
    boolean applied(String shardId, String sequence) {
        Progress progress = byToken.get(Watermarks.token(shardId));
        if (progress == null) {
            return false;
        }
        return progress.acknowledged() != null && sequence.compareTo(progress.acknowledged()) <= 0
                || progress.pending() != null && sequence.compareTo(progress.pending()) < 0;
    }

    /**
     * The lineage the cursor of {@code shardId} records, under which the shard writes its partials of shared items
     * ({@link io.tally.stream.engine.ShardCursors#lineage}); the shard's own id when its cursor records none (an engine
     * before lineages) or it has no cursor (it has applied nothing).
     */
    String lineage(String shardId) {
        Progress progress = byToken.get(Watermarks.token(shardId));
        return progress == null || progress.lineage() == null ? shardId : progress.lineage();
    }

    /** How many shards' cursors were read. */
    int shards() {
        return byToken.size();
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }
}
