package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.stream.engine.SourceRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reading open shards to their ends when GetRecords answers an empty page before a shard's tip, as DynamoDB Streams
 * may (DynamoDB Local never does, so the streams client here is a scripted one: the only part that is not real).
 */
class StreamHistoryTest {
    private static final String STREAM = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000";
    private static final Duration SETTLE = Duration.ofMillis(600);

    @Test
    void aShardReadAfterTheScansDeadline_stillSettles_andAnEmptyFirstPageDoesNotEndIt() {
        ScriptedStreams streams = new ScriptedStreams();
        // The first open shard is at its tip from the start; the second answers an empty page, then its record.
        streams.shard("shardId-a", false, List.of(List.of(record("shardId-a", 100))));
        streams.shard("shardId-b", false, List.of(List.of(), List.of(record("shardId-b", 200))));
        List<SourceRecord> read = new ArrayList<>();

        // The scan's deadline is the read's start: by the time the second shard is read, it has passed (one reader
        // reads them one after the other).
        StreamPosition position = new StreamHistory(streams, Clock.systemUTC(), 1)
                .read(STREAM, List.of(open("shardId-a"), open("shardId-b")), Instant.now(), SETTLE, read::add);

        assertThat(read).extracting(SourceRecord::shardId).containsExactly("shardId-a", "shardId-b");
        assertThat(position.shards()).containsExactly("shardId-a", "shardId-b");
        assertThat(streams.calls("shardId-b")).as("pages of the second shard").isGreaterThanOrEqualTo(2);
    }

    @Test
    void aClosedShard_endsWhereItsIteratorsEnd_withoutWaiting() {
        ScriptedStreams streams = new ScriptedStreams();
        streams.shard("shardId-c", true, List.of(List.of(), List.of(record("shardId-c", 300))));
        List<SourceRecord> read = new ArrayList<>();
        Shard closed = open("shardId-c").toBuilder().sequenceNumberRange(SequenceNumberRange.builder()
                .startingSequenceNumber("300").endingSequenceNumber("300").build()).build();

        new StreamHistory(streams, Clock.systemUTC(), 4).read(STREAM, List.of(closed), Instant.now(), SETTLE, read::add);

        assertThat(read).extracting(SourceRecord::sequenceNumber).containsExactly("300");
        assertThat(streams.calls("shardId-c")).isEqualTo(2);
    }

    @Test
    void aShardWhoseReadFails_failsTheRead_withItsOwnError_andItsChildrenAreNotRead() {
        ScriptedStreams streams = new ScriptedStreams();
        streams.shard("shardId-a", false, List.of(List.of(record("shardId-a", 100))));
        streams.shard("shardId-bad", true, List.of(List.of(record("shardId-bad", 200))));
        streams.shard("shardId-child", false, List.of(List.of(record("shardId-child", 300))));
        streams.failing.add("shardId-bad");
        Shard bad = open("shardId-bad").toBuilder().sequenceNumberRange(SequenceNumberRange.builder()
                .startingSequenceNumber("200").endingSequenceNumber("200").build()).build();
        Shard child = open("shardId-child").toBuilder().parentShardId("shardId-bad").build();

        assertThatThrownBy(() -> new StreamHistory(streams, Clock.systemUTC(), 4).read(STREAM,
                List.of(open("shardId-a"), bad, child), Instant.now(), SETTLE, record -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessage("GetRecords failed on shardId-bad");
        assertThat(streams.calls).doesNotContainKey("shardId-child");
    }

    private static Shard open(String shardId) {
        return Shard.builder().shardId(shardId)
                .sequenceNumberRange(SequenceNumberRange.builder().startingSequenceNumber("1").build()).build();
    }

    private static Record record(String shardId, long sequence) {
        Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("ITEM#" + shardId),
                "sk", AttributeValue.fromS("#ITEM#"));
        return Record.builder().eventID("ev-" + sequence).eventName(OperationType.INSERT)
                .dynamodb(StreamRecord.builder().sequenceNumber(Long.toString(sequence)).keys(keys)
                        .newImage(keys).approximateCreationDateTime(Instant.parse("2026-01-01T00:00:00Z")).build())
                .build();
    }

    /**
     * A streams client that answers each shard's GetRecords calls with the pages given (a closed shard's iterator
     * ends after its last page; an open shard's last page repeats as empty pages), and counts them.
     */
    private static final class ScriptedStreams implements DynamoDbStreamsClient {
        private final Map<String, List<List<Record>>> pages = new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        private final Set<String> closed = ConcurrentHashMap.newKeySet();
        private final Set<String> failing = ConcurrentHashMap.newKeySet();

        void shard(String shardId, boolean isClosed, List<List<Record>> shardPages) {
            pages.put(shardId, shardPages);
            if (isClosed) {
                closed.add(shardId);
            }
        }

        int calls(String shardId) {
            return calls.get(shardId).get();
        }

        @Override
        public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
            return GetShardIteratorResponse.builder().shardIterator(request.shardId() + "#0").build();
        }

        @Override
        public GetRecordsResponse getRecords(GetRecordsRequest request) {
            String[] iterator = request.shardIterator().split("#");
            String shardId = iterator[0];
            int page = Integer.parseInt(iterator[1]);
            if (failing.contains(shardId)) {
                throw new IllegalStateException("GetRecords failed on " + shardId);
            }
            calls.computeIfAbsent(shardId, s -> new AtomicInteger()).incrementAndGet();
            List<List<Record>> shardPages = pages.get(shardId);
            List<Record> records = page < shardPages.size() ? shardPages.get(page) : List.of();
            boolean closedAndDone = closed.contains(shardId) && page + 1 >= shardPages.size();
            return GetRecordsResponse.builder().records(records)
                    .nextShardIterator(closedAndDone ? null : shardId + "#" + (page + 1)).build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }
}
