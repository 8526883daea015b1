package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.read.SharedReads;
import io.tally.core.users.Users;
import io.tally.domains.favs.FavKeys;
import io.tally.domains.favs.FavFigures;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import io.tally.testkit.LocalDynamoDb;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;

/**
 * A repair's write at cloud scale on DynamoDB Local: 200 open shards and 50 shards the position does not know guard
 * an item of 1,000 counters. A condition per shard would pass DynamoDB's expression limits; the write reads, checks
 * and replaces the item on its write version instead.
 */
class RepairWriterIT {
    private static final Key STATS = FavKeys.favouriteStats("u1");
    private static final int OPEN_SHARDS = 200;

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private String table;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("repair-writer-it");
    }

    private static String pad(long sequence) {
        return SourceRecord.pad(Long.toString(sequence));
    }

    private static String shard(int i) {
        return "shardId-00000001795760000000-" + String.format("%08x", i);
    }

    /** The repair of the stats: 1,000 tag counts, every open shard at 900 in the position, 50 unknown shards. */
    private static RepairWrite repair() {
        Map<String, AttributeValue> values = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            values.put(FavFigures.TAG_PREFIX + "t" + i, AttributeValue.fromN(Integer.toString(i + 1)));
        }
        Map<String, AttributeValue> bookkeeping = new HashMap<>();
        Map<String, String> atMost = new HashMap<>();
        for (int i = 0; i < OPEN_SHARDS; i++) {
            bookkeeping.put(Watermarks.attributeName(shard(i)), AttributeValue.fromS(pad(900)));
            atMost.put(Watermarks.attributeName(shard(i)), pad(900));
        }
        Set<String> absent = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            absent.add(Watermarks.attributeName(shard(10_000 + i)));
        }
        return new RepairWrite(STATS, FavFigures.STATS.type().entityType(), values, Set.of("tag:gone"), bookkeeping, atMost,
                absent);
    }

    /** The stats as a stream processor left them: every open shard's watermark at {@code watermark}. */
    private void stored(long watermark) {
        Map<String, AttributeValue> item = new HashMap<>(STATS.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("FavouriteStats"));
        item.put("tag:gone", AttributeValue.fromN("3"));
        item.put(TableSchema.WRITE_VERSION, AttributeValue.fromN("17"));
        for (int i = 0; i < OPEN_SHARDS; i++) {
            item.put(Watermarks.attributeName(shard(i)), AttributeValue.fromS(pad(i == 7 ? watermark : 500)));
        }
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private Map<String, AttributeValue> item() {
        return dynamo.getItem(r -> r.tableName(table).key(STATS.toAttributeMap()).consistentRead(true)).item();
    }

    @Test
    void twoHundredOpenShards_aThousandCounters_oneWriteWithinTheLimits() {
        stored(800);

        RepairWriter.Outcome outcome = new RepairWriter(dynamo, table).write(List.of(repair()));

        assertThat(outcome).isEqualTo(RepairWriter.Outcome.WRITTEN);
        Map<String, AttributeValue> item = item();
        assertThat(item.get(FavFigures.TAG_PREFIX + "t999")).isEqualTo(AttributeValue.fromN("1000"));
        assertThat(item).doesNotContainKey("tag:gone");
        assertThat(item.get(Watermarks.attributeName(shard(199)))).isEqualTo(AttributeValue.fromS(pad(900)));
        assertThat(item.get(TableSchema.WRITE_VERSION)).isEqualTo(AttributeValue.fromN("18"));
    }

    @Test
    void aSharedItemWithMorePartialsThanATransactionTakes_isRepairedWhole_inSeveralTransactions() {
        Key base = Users.statsKey("u9");
        List<RepairWrite> writes = new ArrayList<>();
        Map<String, AttributeValue> item = new HashMap<>(base.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("UserStats"));
        item.put("posts", AttributeValue.fromN("1"));
        dynamo.putItem(r -> r.tableName(table).item(item));
        writes.add(new RepairWrite(base, Users.USER_STATS.entityType(), Map.of("posts", AttributeValue.fromN("250")),
                Set.of(), Map.of(), Map.of(), Set.of()));
        for (int i = 0; i < 249; i++) {
            Key partial = Users.USER_STATS.partial(base, Watermarks.token(shard(i)));
            Map<String, AttributeValue> stored = new HashMap<>(partial.toAttributeMap());
            stored.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("UserStats"));
            stored.put("posts", AttributeValue.fromN("2"));
            stored.put(Watermarks.attributeName(shard(i)), AttributeValue.fromS(pad(500)));
            dynamo.putItem(r -> r.tableName(table).item(stored));
            writes.add(new RepairWrite(partial, Users.USER_STATS.entityType(), Map.of(), Set.of("posts"),
                    Map.of(Watermarks.attributeName(shard(i)), AttributeValue.fromS(pad(900))), Map.of(), Set.of()));
        }

        RepairWriter.Outcome outcome = new RepairWriter(dynamo, table).write(writes);

        assertThat(outcome).isEqualTo(RepairWriter.Outcome.WRITTEN);
        assertThat(SharedReads.whole(dynamo, table, base, null)).containsEntry("posts", AttributeValue.fromN("250"));
        assertThat(dynamo.getItem(r -> r.tableName(table).consistentRead(true).key(Users.USER_STATS.partial(base,
                Watermarks.token(shard(248))).toAttributeMap())).item())
                .doesNotContainKey("posts")
                .containsEntry(Watermarks.attributeName(shard(248)), AttributeValue.fromS(pad(900)));
    }

    @Test
    void oneOfTwoHundredOpenShardsPastThePosition_refused_itemUntouched() {
        stored(901);

        RepairWriter.Outcome outcome = new RepairWriter(dynamo, table).write(List.of(repair()));

        assertThat(outcome).isEqualTo(RepairWriter.Outcome.REFUSED);
        assertThat(item().get("tag:gone")).isEqualTo(AttributeValue.fromN("3"));
        assertThat(item().get(TableSchema.WRITE_VERSION)).isEqualTo(AttributeValue.fromN("17"));
    }

    @Test
    void aWriteLandingBetweenTheReadAndTheReplacement_failsItsCondition_theItemIsReadAndCheckedAgain() {
        stored(800);
        // Before the first replacement, a stream processor's write: its shard past the position, its version moved.
        DynamoDbClient racing = new DynamoDbClient() {
            private boolean raced;

            @Override
            public GetItemResponse getItem(GetItemRequest request) {
                return dynamo.getItem(request);
            }

            @Override
            public PutItemResponse putItem(PutItemRequest request) {
                if (!raced) {
                    raced = true;
                    dynamo.updateItem(r -> r.tableName(table).key(STATS.toAttributeMap())
                            .updateExpression("SET #wm = :wm ADD #wv :one")
                            .expressionAttributeNames(Map.of("#wm", Watermarks.attributeName(shard(3)),
                                    "#wv", TableSchema.WRITE_VERSION))
                            .expressionAttributeValues(Map.of(":wm", AttributeValue.fromS(pad(950)),
                                    ":one", AttributeValue.fromN("1"))));
                }
                return dynamo.putItem(request);
            }

            @Override
            public String serviceName() {
                return SERVICE_NAME;
            }

            @Override
            public void close() {
            }
        };

        RepairWriter.Outcome outcome = new RepairWriter(racing, table).write(List.of(repair()));

        assertThat(outcome).isEqualTo(RepairWriter.Outcome.REFUSED);
        assertThat(item().get(Watermarks.attributeName(shard(3)))).isEqualTo(AttributeValue.fromS(pad(950)));
        assertThat(item().get("tag:gone")).isEqualTo(AttributeValue.fromN("3"));
    }
}
