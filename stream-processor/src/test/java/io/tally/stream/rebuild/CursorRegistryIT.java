package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.PrunerPositionItem;
import io.tally.core.ShardCursorItem;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import io.tally.testkit.CountingDynamoDb;
import io.tally.testkit.LocalDynamoDb;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The cursor registry: stream processors enter the cursors they create, the pruner enters those it finds without an
 * entry and, once a pass has completed so, checks the cursors with Queries of the registry instead of a scan.
 */
class CursorRegistryIT {
    private final AtomicInteger cursorScans = new AtomicInteger();
    /** Counts the scans for cursors (filtered to cursor items; one request per segment, the first counted). */
    private final DynamoDbClient dynamo = CountingDynamoDb.counting(LocalDynamoDb.client(),
            request -> request instanceof ScanRequest scan && scan.filterExpression() != null
                    && scan.segment() != null && scan.segment() == 0, cursorScans);
    private String table;
    private String liveShard;

    @BeforeEach
    void createTableWithAShard() {
        table = LocalDynamoDb.createTable("registry");
        String streamArn = dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn();
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", s("USER#u0"), "sk", s("#METADATA#u0"))));
        liveShard = LocalDynamoDb.streamsClient().describeStream(r -> r.streamArn(streamArn))
                .streamDescription().shards().get(0).shardId();
    }

    @Test
    void claim_ofANewShard_entersItsCursor_once() {
        DynamoDbShardCursors cursors = new DynamoDbShardCursors(dynamo, table);
        ShardCursors.Lease lease = new ShardCursors.Lease("a", Instant.now().plusSeconds(60));
        cursors.claim(liveShard, SourceRecord.pad("1"), lease, Instant.now());

        assertThat(cursor(liveShard)).containsEntry(ShardCursorItem.REGISTERED, AttributeValue.fromBool(true));
        Map<String, AttributeValue> entry = entry(liveShard);
        assertThat(entry).containsEntry(ShardCursorItem.SHARD_ID, s(liveShard))
                .containsEntry("entityType", s(ShardCursorItem.TYPE.attributeValue()));
        assertThat(entry.get("pk").s()).isEqualTo(ShardCursorItem.REGISTRY_PREFIX + Watermarks.token(liveShard).charAt(0));
    }

    @Test
    void claim_whoseRegistryWriteFailsWithAnyException_isGranted_andTheNextClaimEntersTheCursor() {
        // The SDK can fail a request with an unchecked exception of its own (a NullPointerException in its retry
        // strategy was seen with injected faults): the claim is written by then, so the batch must still run.
        AtomicInteger registryPuts = new AtomicInteger();
        DynamoDbClient failingOnce = (DynamoDbClient) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    if (args != null && args.length == 1 && args[0] instanceof PutItemRequest
                            && registryPuts.incrementAndGet() == 1) {
                        throw new NullPointerException("injected: not an SdkException");
                    }
                    try {
                        return method.invoke(dynamo, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        DynamoDbShardCursors cursors = new DynamoDbShardCursors(failingOnce, table);
        ShardCursors.Lease lease = new ShardCursors.Lease("a", Instant.now().plusSeconds(60));

        assertThat(cursors.claim(liveShard, SourceRecord.pad("1"), lease, Instant.now()))
                .isInstanceOf(ShardCursors.Granted.class);
        assertThat(cursor(liveShard)).containsEntry(ShardCursorItem.HOLDER, s("a"))
                .doesNotContainKey(ShardCursorItem.REGISTERED);
        assertThat(entry(liveShard)).isEmpty();

        assertThat(cursors.claim(liveShard, SourceRecord.pad("1"), lease, Instant.now()))
                .isInstanceOf(ShardCursors.Granted.class);
        assertThat(cursor(liveShard)).containsEntry(ShardCursorItem.REGISTERED, AttributeValue.fromBool(true));
        assertThat(entry(liveShard)).isNotEmpty();
    }

    @Test
    void firstPass_entersTheCursorsItFinds_dropsTheEntriesOfGoneShards_andLaterPassesQueryTheRegistry() {
        putCursor(liveShard, Instant.now().toString());
        String gone = "shardId-00000009-gone";
        putEntry(gone);
        WatermarkPruner pruner = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table);

        assertThat(pruner.prune().outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(cursorScans).as("the first pass checks the cursors with a scan").hasValue(1);
        assertThat(cursor(liveShard)).containsKey(ShardCursorItem.REGISTERED);
        assertThat(entry(liveShard)).isNotEmpty();
        assertThat(entry(gone)).isEmpty();
        assertThat(position()).containsKey(PrunerPositionItem.CURSORS_REGISTERED);

        assertThat(pruner.prune().outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(cursorScans).as("a later pass queries the registry").hasValue(1);
    }

    @Test
    void registryCheck_refusesWhileARecentCursorNamesAShardTheListingDoesNotHold() {
        WatermarkPruner pruner = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table);
        pruner.prune();
        String unlisted = "shardId-00000005-as-delivered";
        putCursor(unlisted, Instant.now().minus(Duration.ofHours(1)).toString());
        putEntry(unlisted);

        assertThatThrownBy(pruner::prune).isInstanceOf(WatermarkPruner.Refused.class).hasMessageContaining(unlisted);
        assertThat(cursor(unlisted)).isNotEmpty();
        assertThat(cursorScans).as("found through the registry").hasValue(1);

        putCursor(unlisted, Instant.now().minus(Duration.ofHours(25)).toString());
        assertThat(pruner.prune().outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(cursor(unlisted)).isEmpty();
        assertThat(entry(unlisted)).isEmpty();
    }

    @Test
    void entryOfAGoneShard_outlivesItsCursor_andGoesWithIt() {
        String gone = "shardId-00000011-gone";
        putCursor(gone, "2026-11-01T00:00:00Z");
        putEntry(gone);
        WatermarkPruner pruner = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table);

        assertThat(pruner.prune().outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);

        assertThat(cursor(gone)).isEmpty();
        assertThat(entry(gone)).isEmpty();
    }

    @Test
    void recentCursorOfAnUnlistedShardWithoutAnEntry_isKept_andTheNextPassScansAndRefuses() {
        WatermarkPruner pruner = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table);
        pruner.prune();
        String unlisted = "shardId-00000012-registration-failed";
        putCursor(unlisted, Instant.now().minus(Duration.ofHours(1)).toString());

        // The registry's check cannot see it; the pruning keeps it and forgets that every cursor is registered.
        assertThat(pruner.prune().outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(cursor(unlisted)).isNotEmpty();
        assertThat(position()).doesNotContainKey(PrunerPositionItem.CURSORS_REGISTERED);

        assertThatThrownBy(pruner::prune).isInstanceOf(WatermarkPruner.Refused.class).hasMessageContaining(unlisted);
        assertThat(cursorScans).as("the pass after it checks with a scan").hasValue(2);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private void putCursor(String shardId, String updatedAt) {
        Map<String, AttributeValue> item = new HashMap<>(ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap());
        item.put("entityType", s(ShardCursorItem.TYPE.attributeValue()));
        item.put(ShardCursorItem.SHARD_ID, s(shardId));
        item.put(ShardCursorItem.UPDATED_AT, s(updatedAt));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private void putEntry(String shardId) {
        Map<String, AttributeValue> item = new HashMap<>(
                ShardCursorItem.registryKey(Watermarks.token(shardId)).toAttributeMap());
        item.put("entityType", s(ShardCursorItem.TYPE.attributeValue()));
        item.put(ShardCursorItem.SHARD_ID, s(shardId));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private Map<String, AttributeValue> cursor(String shardId) {
        return dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap())).item();
    }

    private Map<String, AttributeValue> entry(String shardId) {
        return dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(ShardCursorItem.registryKey(Watermarks.token(shardId)).toAttributeMap())).item();
    }

    private Map<String, AttributeValue> position() {
        return dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(PrunerPositionItem.KEY.toAttributeMap())).item();
    }
}
