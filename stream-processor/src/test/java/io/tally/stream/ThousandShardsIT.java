package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.domains.songs.Download;
import io.tally.domains.songs.Song;
import io.tally.domains.songs.Songs;
import io.tally.stream.engine.DerivedStore;
import io.tally.stream.engine.DerivedWrite;
import io.tally.stream.engine.DerivedWrites;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestLambdaContext;
import io.tally.testkit.LocalDynamoDb;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * 1,000 stream shards through the Lambda handler path (Lambda's event classes, the windowed handler, the engine, the
 * real derived store on DynamoDB Local): every shard delivers downloads of one hot song and of a few others on one
 * day. Measures the largest update expression and the largest derived item of each type, prints them, and checks the
 * bounds docs/exactly-once.md states: every expression within DynamoDB's 4 KB, every item within 400 KB, and the day's
 * downloads (a shared item) kept as one partial per shard, in its shard's slot, with that shard's watermark only. About a minute on a quiet machine: tagged
 * {@code scale}, run by the fault profile (.ci/run), not by the README's {@code mvn verify}.
 */
@Tag("scale")
class ThousandShardsIT {
    private static final int SHARDS = 1_000;
    private static final Instant DAY = Instant.parse("2026-11-27T08:00:00Z");
    private static final String STREAM = "arn:aws:dynamodb:eu-west-1:123456789012:table/thousand/stream/2026-11-27T00:00:00.000";

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final String table = LocalDynamoDb.createTable("thousand-shards");

    private static String shard(int i) {
        return String.format("shardId-00000001795760000000-%08x", i);
    }

    /** Measures each write's update expression before the DynamoDB store makes it. */
    private static final class Measured implements DerivedStore {
        private final DerivedStore store;
        private final String table;
        private final AtomicInteger largestUpdate = new AtomicInteger();
        private final AtomicInteger largestCondition = new AtomicInteger();
        private final AtomicInteger writes = new AtomicInteger();

        Measured(DerivedStore store, String table) {
            this.store = store;
            this.table = table;
        }

        @Override
        public Outcome apply(DerivedWrite write) {
            UpdateItemRequest request = DerivedWrites.toUpdateItem(table, write);
            largestUpdate.accumulateAndGet(utf8(request.updateExpression()), Math::max);
            largestCondition.accumulateAndGet(utf8(request.conditionExpression()), Math::max);
            writes.incrementAndGet();
            return store.apply(write);
        }
    }

    @Test
    void aThousandShards_throughTheHandler_expressionsAndItemsWithinDynamoDbsLimits_aPartialPerShardOfSharedItems() {
        dynamo.putItem(r -> r.tableName(table).item(new Song("hot", "Hot", null, DAY).toItem()));
        for (int s = 0; s < 20; s++) {
            String songId = "s" + s;
            dynamo.putItem(r -> r.tableName(table).item(new Song(songId, "Song " + songId, null, DAY).toItem()));
        }
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        Measured store = new Measured(new DynamoDbDerivedStore(dynamo, table), table);
        try (Engine engine = Engine.builder().derivations(derivations).store(store)
                .deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher()).build()) {
            WindowedStreamHandler handler = new WindowedStreamHandler(engine, () -> { });
            for (int i = 0; i < SHARDS; i++) {
                List<Record> records = List.of(
                        download(i, 1, new Download("d" + i + "a", "hot", null, DAY.plusMillis(i), null)),
                        download(i, 2, new Download("d" + i + "b", "s" + (i % 20), null, DAY.plusMillis(i), null)));
                DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
                event.setRecords(SdkToLambdaRecords.records(records, STREAM));
                event.setShardId(shard(i));
                event.setEventSourceArn(STREAM);
                event.setState(Map.of());
                TimeWindowEventResponse response = handler.handleRequest(event, new TestLambdaContext(60_000));
                assertThat(response.getBatchItemFailures()).as("shard %d", i).isEmpty();
            }
        }

        Map<String, Integer> largest = new TreeMap<>();
        Map<String, Integer> watermarks = new TreeMap<>();
        List<Map<String, AttributeValue>> daySlots = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            String type = item.get(TableSchema.ENTITY_TYPE).s();
            largest.merge(type, size(item), Math::max);
            watermarks.merge(type, (int) item.keySet().stream().filter(Watermarks::isWatermark).count(), Math::max);
            if (type.equals(Songs.DOWNLOAD_DAY.name())) {
                daySlots.add(item);
            }
        });
        StringBuilder report = new StringBuilder("1,000 shards through the handler: " + store.writes + " derived writes,"
                + " largest update expression " + store.largestUpdate + " B, largest condition " + store.largestCondition
                + " B\n| item type | largest item (bytes) | most watermarks |\n|---|---:|---:|\n");
        largest.forEach((type, bytes) -> report.append("| ").append(type).append(" | ").append(bytes).append(" | ")
                .append(watermarks.get(type)).append(" |\n"));
        System.out.println(report);

        assertThat(store.largestUpdate.get()).isLessThanOrEqualTo(4096);
        assertThat(store.largestCondition.get()).isLessThanOrEqualTo(4096);
        assertThat(largest.values()).allSatisfy(bytes -> assertThat(bytes).isLessThan(400 * 1024));
        // The day's downloads, written by every shard, are shared: each shard wrote a partial of its own in its slot's
        // partition, with its watermark only; no base item was written.
        int slots = ShardSettings.DEFAULTS.global();
        assertThat(daySlots).hasSize(SHARDS);
        long total = 0;
        for (Map<String, AttributeValue> partial : daySlots) {
            Key key = Key.of(partial);
            String token = PartialKeys.partialToken(key);
            assertThat(token).as("a partial: %s", key).isNotNull();
            int k = Integer.parseInt(key.pk().substring("DOWNLOADS#DAYS#".length()));
            assertThat(partial.keySet().stream().filter(Watermarks::isWatermark).toList())
                    .containsExactly(Watermarks.PREFIX + token);
            int i = Integer.parseInt(shardOfToken(token), 16);
            assertThat(Shards.of(shard(i), slots)).isEqualTo(k);
            total += Long.parseLong(partial.get(Songs.DOWNLOADS).n());
        }
        assertThat(total).isEqualTo(2L * SHARDS);
    }

    /** The synthetic shard (its number, in hex) whose token this is. */
    private static String shardOfToken(String token) {
        for (int i = 0; i < SHARDS; i++) {
            if (Watermarks.token(shard(i)).equals(token)) {
                return String.format("%x", i);
            }
        }
        throw new AssertionError("no shard has the token " + token);
    }

    /** A download's INSERT record, sequence {@code sequence} of shard {@code i}. */
    private static Record download(int i, int sequence, Download download) {
        Map<String, AttributeValue> item = download.toItem();
        return Record.builder()
                .eventID(shard(i) + "-" + sequence)
                .eventName(OperationType.INSERT)
                .eventSource("aws:dynamodb")
                .awsRegion("eu-west-1")
                .dynamodb(StreamRecord.builder()
                        .keys(Map.of(TableSchema.PK, item.get(TableSchema.PK), TableSchema.SK, item.get(TableSchema.SK)))
                        .newImage(item)
                        .sequenceNumber(Long.toString(1000L * i + sequence))
                        .sizeBytes((long) size(item))
                        .approximateCreationDateTime(DAY)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build())
                .build();
    }

    /** An item's size as DynamoDB counts it, near enough: names and values in UTF-8, numbers as their digits. */
    private static int size(Map<String, AttributeValue> item) {
        int bytes = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            AttributeValue value = attribute.getValue();
            String text = value.s() != null ? value.s() : value.n() != null ? value.n() : value.toString();
            bytes += utf8(attribute.getKey()) + utf8(text);
        }
        return bytes;
    }

    private static int utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
