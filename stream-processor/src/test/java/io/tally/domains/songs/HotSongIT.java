package io.tally.domains.songs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.SharedReads;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A hot song: thousands of downloads of one song on one day, from the table's real stream through the engine into
 * DynamoDB Local, counting the requests the engine sends. The counts are coalesced per derived item, so each batch is
 * five writes (the song's all-time, day and month items, all songs' day, one slot of the global totals), never one
 * per download.
 */
class HotSongIT {
    private static final int DOWNLOADS = 3000;
    private static final int BATCH = 1000;
    private static final Instant AT = Instant.parse("2024-05-17T08:00:00Z");

    @Test
    void thousandsOfDownloadsOfOneSong_fiveDerivedWritesABatch_andExact() {
        AtomicInteger updates = new AtomicInteger();
        ExecutionInterceptor countUpdates = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest) {
                    updates.incrementAndGet();
                }
            }
        };
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            DynamoDbClient client = server.client(countUpdates);
            client.createTable(TableDefinition.createTableRequest("tally"));
            client.putItem(r -> r.tableName("tally").item(new Song("hot", "Hot", null, AT).toItem()));
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            for (int i = 0; i < DOWNLOADS; i++) {
                items.add(new Download("d" + i, "hot", null, AT.plusMillis(i), null).toItem());
            }
            batchWrite(client, items);
            List<SourceRecord> records = StreamReader.readAll(server.streamsClient(), "tally", StreamRecords::fromSdk)
                    .values().stream().flatMap(List::stream).toList();
            assertThat(records).hasSize(DOWNLOADS + 1);

            var derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
            int batches = 0;
            try (Engine engine = Engine.builder().derivations(derivations)
                    .store(new DynamoDbDerivedStore(client, "tally")).deadLetters(new InMemoryDeadLetterSink())
                    .publisher(new RecordingPublisher()).build()) {
                for (int from = 0; from < records.size(); from += BATCH) {
                    BatchResult result = engine.process(records.subList(from, Math.min(records.size(), from + BATCH)));
                    assertThat(result.failedSequenceNumber()).isEmpty();
                    batches++;
                }
            }

            // 3,001 records in 4 batches: 5 derived writes a batch, where one per download would be 15,000.
            assertThat(updates.get()).isEqualTo(5 * batches);
            assertThat(counter(client, Songs.SONG_STATS.key("hot").toAttributeMap(), Songs.DOWNLOADS)).isEqualTo(DOWNLOADS);
            assertThat(counter(client, Songs.SONG_MONTH.key(SongKeys.subject("hot", "2024-05")).toAttributeMap(),
                    TableSchema.DATA)).isEqualTo(DOWNLOADS);
            // All songs' downloads of the day are slotted: the shard's partial in its slot holds them all, the other
            // slots nothing.
            long day = 0;
            for (int slot = 0; slot < ShardSettings.DEFAULTS.global(); slot++) {
                Key key = Songs.DOWNLOAD_DAY.inSlot(Songs.DOWNLOAD_DAY.key("2024-05-17"), Integer.toString(slot));
                Map<String, AttributeValue> item = SharedReads.whole(client, "tally", key, null);
                day += item == null || !item.containsKey(Songs.DOWNLOADS) ? 0 : Long.parseLong(item.get(Songs.DOWNLOADS).n());
            }
            assertThat(day).isEqualTo(DOWNLOADS);
            assertThat(new Rebuilder(client, server.streamsClient(), "tally", derivations, 2).verify().differences())
                    .isEmpty();
        }
    }

    /** A counter as readers read it: the item whole, with the per-shard partials of a shared one summed. */
    private static long counter(DynamoDbClient client, Map<String, AttributeValue> key, String attribute) {
        return Long.parseLong(SharedReads.whole(client, "tally", Key.of(key), null).get(attribute).n());
    }

    private static void batchWrite(DynamoDbClient client, List<Map<String, AttributeValue>> items) {
        for (int from = 0; from < items.size(); from += 25) {
            List<WriteRequest> writes = items.subList(from, Math.min(items.size(), from + 25)).stream()
                    .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                    .toList();
            Map<String, List<WriteRequest>> pending = Map.of("tally", writes);
            while (!pending.isEmpty()) {
                pending = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(pending).build())
                        .unprocessedItems();
            }
        }
    }
}
