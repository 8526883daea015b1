package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.read.SharedReads;
import io.tally.core.users.Users;
import io.tally.domains.favs.FavFigures;
import io.tally.stream.engine.Watermarks;
import io.tally.testkit.CountingDynamoDb;
import io.tally.testkit.LocalDynamoDb;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** Pruning against DynamoDB Local's real stream: the shards it lists are live, any other shard is gone. */
class WatermarkPrunerIT {
    private static final String VALUE = "0000000000000000000000000000000000000042";
    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private String table;
    private String streamArn;
    private String liveShard;

    @BeforeEach
    void createTableWithAShard() {
        table = LocalDynamoDb.createTable("prune");
        streamArn = dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn();
        // A write, so that the stream has a shard.
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", s("USER#u0"), "sk", s("#METADATA#u0"))));
        liveShard = LocalDynamoDb.streamsClient().describeStream(r -> r.streamArn(streamArn))
                .streamDescription().shards().get(0).shardId();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private void putDerived(String pk, String... shardIds) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of("pk", s(pk), "sk", s("#STATS#"),
                "posts", AttributeValue.fromN("3"), "entityType", s("UserStats")));
        for (String shardId : shardIds) {
            item.put(Watermarks.attributeName(shardId), s(VALUE));
        }
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private Map<String, AttributeValue> get(String pk) {
        return dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(Map.of("pk", s(pk), "sk", s("#STATS#")))).item();
    }

    @Test
    void prune_removesOnlyWatermarksOfShardsTheStreamNoLongerLists_onceAnItemHoldsMoreThanTwo() {
        putDerived("USER#u1", liveShard, streamArn, "shardId-00000001-gone", "shardId-00000002-gone",
                "shardId-00000003-gone");
        putDerived("USER#u2", liveShard);
        putDerived("USER#u3", liveShard, "shardId-00000001-gone", "shardId-00000002-gone");

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.itemsPruned()).isEqualTo(1);
        assertThat(report.watermarksRemoved()).isEqualTo(3);
        // Three derived items, the base item and the pruner's position.
        assertThat(report.itemsScanned()).isEqualTo(5);
        // Two watermarks of gone shards are kept (never read again; a removal would be a write of the whole item).
        assertThat(get("USER#u3")).containsOnlyKeys("pk", "sk", "posts", "entityType",
                Watermarks.attributeName(liveShard), Watermarks.attributeName("shardId-00000001-gone"),
                Watermarks.attributeName("shardId-00000002-gone"));
        assertThat(get("USER#u1")).containsOnlyKeys("pk", "sk", "posts", "entityType",
                Watermarks.attributeName(liveShard), Watermarks.attributeName(streamArn));
        assertThat(get("USER#u1").get("posts").n()).isEqualTo("3");
        assertThat(get("USER#u2")).containsKey(Watermarks.attributeName(liveShard));

        WatermarkPruner.Report again = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();
        assertThat(again.itemsPruned()).isZero();
    }

    /** Issue 38: one item with 1,000 stale watermarks, more than one request's condition can hold (300 operators). */
    @Test
    void prunerTestWith1000StaleWatermarks_removesThemAll_keepsTheLiveOnesAndTheCounters() {
        String[] shards = new String[1_002];
        for (int i = 0; i < 1_000; i++) {
            shards[i] = String.format("shardId-%08d-gone", i);
        }
        shards[1_000] = liveShard;
        shards[1_001] = streamArn;
        putDerived("GLOBAL#STATS#0", shards);
        putDerived("USER#u7", liveShard, "shardId-00001000-gone", "shardId-00001001-gone",
                "shardId-00001002-gone");

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.watermarksRemoved()).isEqualTo(1_003);
        assertThat(report.itemsPruned()).isEqualTo(2);
        assertThat(report.itemsChangedMeanwhile()).isZero();
        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(get("GLOBAL#STATS#0")).containsOnlyKeys("pk", "sk", "posts", "entityType",
                Watermarks.attributeName(liveShard), Watermarks.attributeName(streamArn));
        assertThat(get("GLOBAL#STATS#0").get("posts").n()).isEqualTo("3");
        assertThat(get("USER#u7")).containsOnlyKeys("pk", "sk", "posts", "entityType",
                Watermarks.attributeName(liveShard));
    }

    @Test
    void prune_foldsThePartialsOfGoneShardsIntoTheirItems_keepsThoseOfLiveShards_theFiguresUnchanged() {
        Key stats = Users.statsKey("u7");
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", s(stats.pk()), "sk", s(stats.sk()),
                "entityType", s("UserStats"), "userId", s("u7"), "posts", AttributeValue.fromN("1"),
                "wv", AttributeValue.fromN("1"), Watermarks.attributeName(liveShard), s(VALUE))));
        putPartial(stats, "shardId-00000006-gone", Map.of("posts", AttributeValue.fromN("2"),
                "comments", AttributeValue.fromN("-1")));
        putPartial(stats, "shardId-00000007-gone", Map.of("comments", AttributeValue.fromN("4")));
        putPartial(stats, liveShard, Map.of("posts", AttributeValue.fromN("5")));
        Map<String, AttributeValue> before = SharedReads.whole(dynamo, table, stats, null);
        AtomicInteger transactions = new AtomicInteger();
        DynamoDbClient counting = CountingDynamoDb.counting(dynamo,
                request -> request instanceof TransactWriteItemsRequest, transactions);

        WatermarkPruner.Report report = new WatermarkPruner(counting, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.partialsFolded()).isEqualTo(2);
        assertThat(transactions).as("the two partials of the item folded together").hasValue(1);
        assertThat(SharedReads.whole(dynamo, table, stats, null)).isEqualTo(before)
                .containsEntry("posts", AttributeValue.fromN("8")).containsEntry("comments", AttributeValue.fromN("3"));
        List<Key> left = dynamo.queryPaginator(r -> r.tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s(stats.pk())))).items().stream().map(Key::of).toList();
        assertThat(left).containsExactlyInAnyOrder(stats,
                Users.USER_STATS.partial(stats, Watermarks.token(liveShard)));
        assertThat(new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune().partialsFolded()).isZero();
    }

    @Test
    void prune_keepsALineagesPartialALiveShardStillWrites_andFoldsOneWhoseShardsAreAllGone_whateverTheirNames() {
        Key stats = Users.statsKey("u8");
        // Named by the lineage's first shard, gone; written since by shards of the lineage, the last one live.
        Key continued = Users.USER_STATS.partial(stats, Watermarks.token("shardId-00000001-gone"));
        Map<String, AttributeValue> item = new HashMap<>(continued.toAttributeMap());
        item.put("entityType", s("UserStats"));
        item.put("wv", AttributeValue.fromN("9"));
        item.put("posts", AttributeValue.fromN("4"));
        for (String shard : List.of("shardId-00000001-gone", "shardId-00000002-gone", "shardId-00000003-gone")) {
            item.put(Watermarks.attributeName(shard), s(VALUE));
        }
        item.put(Watermarks.attributeName(liveShard), s(VALUE));
        dynamo.putItem(r -> r.tableName(table).item(item));
        // Named by a live shard's token, yet every shard whose watermark it carries is gone: judged by its watermarks.
        Key ended = Users.USER_STATS.partial(stats, Watermarks.token(liveShard));
        Map<String, AttributeValue> other = new HashMap<>(ended.toAttributeMap());
        other.put("entityType", s("UserStats"));
        other.put("wv", AttributeValue.fromN("2"));
        other.put("posts", AttributeValue.fromN("1"));
        other.put(Watermarks.attributeName("shardId-00000004-gone"), s(VALUE));
        dynamo.putItem(r -> r.tableName(table).item(other));
        Map<String, AttributeValue> before = SharedReads.whole(dynamo, table, stats, null);

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.partialsFolded()).isEqualTo(1);
        assertThat(dynamo.getItem(r -> r.tableName(table).consistentRead(true).key(ended.toAttributeMap())).item())
                .as("the partial whose shards are all gone, folded").isEmpty();
        Map<String, AttributeValue> kept = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(continued.toAttributeMap())).item();
        assertThat(kept).as("the live lineage's partial, its gone shards' watermarks removed")
                .containsEntry("posts", AttributeValue.fromN("4"))
                .containsKey(Watermarks.attributeName(liveShard))
                .doesNotContainKeys(Watermarks.attributeName("shardId-00000001-gone"),
                        Watermarks.attributeName("shardId-00000002-gone"),
                        Watermarks.attributeName("shardId-00000003-gone"));
        assertThat(SharedReads.whole(dynamo, table, stats, null)).isEqualTo(before);
    }

    @Test
    void prune_partialsFoldedTogether_oneWrittenSinceTheRead_theOthersFoldedOneAtATime_itLeftToTheNextPass() {
        Key stats = Users.statsKey("u9");
        putPartial(stats, "shardId-00000016-gone", Map.of("posts", AttributeValue.fromN("1")));
        putPartial(stats, "shardId-00000017-gone", Map.of("posts", AttributeValue.fromN("2")));
        putPartial(stats, "shardId-00000018-gone", Map.of("posts", AttributeValue.fromN("4")));
        Key written = Users.USER_STATS.partial(stats, Watermarks.token("shardId-00000017-gone"));
        // Between the pruner's scan and its first transaction, a write reaches one of the partials (as a late retry of
        // its shard's batch could, before the shard is gone for good).
        AtomicInteger transactions = new AtomicInteger();
        DynamoDbClient writingMeanwhile = (DynamoDbClient) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    if (args != null && args.length == 1 && args[0] instanceof TransactWriteItemsRequest
                            && transactions.incrementAndGet() == 1) {
                        dynamo.updateItem(r -> r.tableName(table).key(written.toAttributeMap())
                                .updateExpression("ADD posts :eight, wv :one")
                                .expressionAttributeValues(Map.of(":eight", AttributeValue.fromN("8"),
                                        ":one", AttributeValue.fromN("1"))));
                    }
                    try {
                        return method.invoke(dynamo, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });

        WatermarkPruner.Report report = new WatermarkPruner(writingMeanwhile, LocalDynamoDb.streamsClient(), table)
                .prune();

        // The group's transaction refused, then one fold each: two folded, the written one left as it is.
        assertThat(transactions).hasValue(4);
        assertThat(report.partialsFolded()).isEqualTo(2);
        assertThat(report.itemsFailed()).isZero();
        assertThat(SharedReads.whole(dynamo, table, stats, null)).containsEntry("posts", AttributeValue.fromN("15"));
        assertThat(dynamo.getItem(r -> r.tableName(table).consistentRead(true).key(written.toAttributeMap())).item())
                .containsEntry("posts", AttributeValue.fromN("10"));

        assertThat(new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune().partialsFolded())
                .isEqualTo(1);
        assertThat(SharedReads.whole(dynamo, table, stats, null)).containsEntry("posts", AttributeValue.fromN("15"));
    }

    @Test
    void prune_leavesABaseItemWhoseSortKeyHoldsTheMark_aTagNamedLikeAPartial() {
        // A tag's name is free text: its reservation's sort key may hold "~p~" and what looks like a token.
        Map<String, AttributeValue> name = Map.of("pk", s("TAGS#u1"), "sk", s("TAGNAME#a~p~bbbbbbbbbbbbbbbb"),
                "entityType", s("TagName"), "tagId", s("t1"));
        dynamo.putItem(r -> r.tableName(table).item(name));

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.partialsFolded()).isZero();
        assertThat(dynamo.getItem(r -> r.tableName(table).consistentRead(true).key(Key.of(name).toAttributeMap()))
                .item()).isEqualTo(name);
    }

    @Test
    void prune_foldingATagCountBackToZero_removesTheCounterFromTheBaseItem() {
        Key stats = FavFigures.STATS.type().key("u8");
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", s(stats.pk()), "sk", s(stats.sk()),
                "entityType", s("FavouriteStats"), "tag:t1", AttributeValue.fromN("1"),
                "tag:t2", AttributeValue.fromN("1"), "wv", AttributeValue.fromN("2"))));
        // The tag t1 unlinked, and t2 linked again, through a shard that is gone now.
        Key partial = FavFigures.STATS.type().partial(stats, Watermarks.token("shardId-00000008-gone"));
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", s(partial.pk()), "sk", s(partial.sk()),
                "entityType", s("FavouriteStats"), "tag:t1", AttributeValue.fromN("-1"),
                "tag:t2", AttributeValue.fromN("1"), "wv", AttributeValue.fromN("4"),
                Watermarks.attributeName("shardId-00000008-gone"), s(VALUE))));

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.partialsFolded()).isEqualTo(1);
        Map<String, AttributeValue> base = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(stats.toAttributeMap())).item();
        assertThat(base).doesNotContainKey("tag:t1").containsEntry("tag:t2", AttributeValue.fromN("2"));
    }

    private void putPartial(Key base, String shardId, Map<String, AttributeValue> counters) {
        Key key = Users.USER_STATS.partial(base, Watermarks.token(shardId));
        Map<String, AttributeValue> item = new HashMap<>(counters);
        item.putAll(key.toAttributeMap());
        item.put("entityType", s("UserStats"));
        item.put("wv", AttributeValue.fromN("3"));
        item.put(Watermarks.attributeName(shardId), s(VALUE));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    @Test
    void prune_deletesTheCursorsOfGoneShards_keepsTheLiveOnes() {
        putCursor("shardId-00000004-gone");
        putCursor(liveShard);

        WatermarkPruner.Report report = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.cursorsRemoved()).isEqualTo(1);
        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(cursor("shardId-00000004-gone")).isEmpty();
        assertThat(cursor(liveShard)).containsEntry(ShardCursorItem.SHARD_ID, s(liveShard));
    }

    @Test
    void prune_refusesWhileARecentCursorNamesAShardTheListingDoesNotHold_andRemovesNothing() {
        String unlisted = "shardId-00000005-as-delivered";
        putCursor(unlisted, Instant.now().minus(Duration.ofHours(1)).toString());
        putDerived("USER#u1", liveShard, unlisted, "shardId-00000011-gone", "shardId-00000012-gone");
        WatermarkPruner pruner = new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table);

        assertThatThrownBy(pruner::prune).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(unlisted).hasMessageContaining("refused");

        assertThat(get("USER#u1")).containsKey(Watermarks.attributeName(unlisted));
        assertThat(cursor(unlisted)).isNotEmpty();
        // A refused pass is not one that began: the next scheduled run checks again rather than waiting a day.
        assertThatThrownBy(() -> pruner.resume(Duration.ofDays(1), () -> true, scanned -> { }))
                .isInstanceOf(WatermarkPruner.Refused.class);

        // A day later the shard could no longer deliver a record: its cursor is old, and the pass runs.
        putCursor(unlisted, Instant.now().minus(Duration.ofHours(25)).toString());
        WatermarkPruner.Report report = pruner.prune();
        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(get("USER#u1")).doesNotContainKey(Watermarks.attributeName(unlisted));
        assertThat(cursor(unlisted)).isEmpty();
    }

    private void putCursor(String shardId) {
        putCursor(shardId, "2026-11-23T10:00:00Z");
    }

    private void putCursor(String shardId, String updatedAt) {
        Map<String, AttributeValue> item = new HashMap<>(ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap());
        item.put("entityType", s(ShardCursorItem.TYPE.attributeValue()));
        item.put(ShardCursorItem.SHARD_ID, s(shardId));
        item.put(ShardCursorItem.UPDATED_AT, s(updatedAt));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private Map<String, AttributeValue> cursor(String shardId) {
        return dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(ShardCursorItem.key(Watermarks.token(shardId)).toAttributeMap())).item();
    }

    @Test
    void prune_watermarkChangedAfterTheScan_isLeftAlone() {
        putDerived("USER#u3", "shardId-00000003-gone", "shardId-00000004-gone", "shardId-00000005-gone");
        String gone = Watermarks.attributeName("shardId-00000003-gone");
        // Between the scan and the removal, the item's watermark moves (as only a live shard could make it).
        DynamoDbClient racing = new DelegatingClient(dynamo) {
            @Override
            public UpdateItemResponse updateItem(UpdateItemRequest request) {
                if (!request.key().get("pk").s().equals("USER#u3")) {
                    return super.updateItem(request);
                }
                dynamo.updateItem(r -> r.tableName(table).key(request.key())
                        .updateExpression("SET #w = :v").expressionAttributeNames(Map.of("#w", gone))
                        .expressionAttributeValues(Map.of(":v", s("0000000000000000000000000000000000000043"))));
                return super.updateItem(request);
            }
        };

        WatermarkPruner.Report report = new WatermarkPruner(racing, LocalDynamoDb.streamsClient(), table).prune();

        assertThat(report.itemsChangedMeanwhile()).isEqualTo(1);
        assertThat(report.itemsPruned()).isZero();
        assertThat(get("USER#u3").get(gone).s()).isEqualTo("0000000000000000000000000000000000000043");
    }

    /** The embedded client takes no interceptor: a client that delegates the calls the pruner makes. */
    private static class DelegatingClient implements DynamoDbClient {
        private final DynamoDbClient delegate;

        DelegatingClient(DynamoDbClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public GetItemResponse getItem(GetItemRequest request) {
            return delegate.getItem(request);
        }

        @Override
        public ScanResponse scan(ScanRequest request) {
            return delegate.scan(request);
        }

        @Override
        public UpdateItemResponse updateItem(UpdateItemRequest request) {
            return delegate.updateItem(request);
        }

        @Override
        public String serviceName() {
            return delegate.serviceName();
        }

        @Override
        public void close() {
        }
    }
}
