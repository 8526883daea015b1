package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.SourceRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Verify's stream read on 1,000 synthetic shards ({@link SyntheticStream}: 250 trees, 500 of the shards open), with
 * the default number of readers. Read one after the other, every open shard would take the settling time; read side
 * by side, the settling times overlap: the test checks that calls of different shards were in flight at once (not a
 * time, which a busy machine would make fail), and prints one {@code STREAM-READ} line with the time it took and the
 * one-after-the-other estimate, a measurement for docs/exactly-once.md, not an assertion. {@code -DstreamRead.settleMillis=5000} runs it with
 * the settling time of {@code verify --aws} (docs/exactly-once.md, "Verify on a large stream").
 */
class StreamReadTimingTest {
    private static final int TREES = 250;
    private static final Duration SETTLE = Duration.ofMillis(Long.getLong("streamRead.settleMillis", 200));
    private static final Duration LATENCY = Duration.ofMillis(2);

    @Test
    void thousandShards_areReadSideBySide_eachLineInOrder() {
        SyntheticStream stream = new SyntheticStream(TREES, LATENCY);
        StreamHistory history = new StreamHistory(stream, Clock.systemUTC(), Rebuilder.DEFAULT_STREAM_READERS);
        List<SourceRecord> read = new ArrayList<>();

        long started = System.nanoTime();
        List<Shard> shards = history.shards(SyntheticStream.ARN);
        StreamPosition position = history.read(SyntheticStream.ARN, shards, Instant.now().plus(SETTLE), SETTLE,
                read::add);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        Duration sequential = stream.sequentialEstimate(SETTLE);
        print("StreamHistory.read", stream, took, sequential);
        assertThat(shards).hasSize(1000);
        assertThat(stream.mostInFlight()).as("calls answered at once").isGreaterThan(1);
        assertThat(read).hasSize((int) stream.records());
        assertThat(position.shards()).containsExactlyElementsOf(shards.stream().map(Shard::shardId).toList());
        assertThat(position.lastSequences()).isEqualTo(stream.lastSequences());
        assertThat(position.openShards()).isEqualTo(stream.openShardIds());
        // Each shard's records in stream order, and all of them after all of its parent's.
        Map<String, List<Integer>> at = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            at.computeIfAbsent(read.get(i).shardId(), s -> new ArrayList<>()).add(i);
        }
        for (Shard shard : shards) {
            List<Integer> positions = at.get(shard.shardId());
            assertThat(positions.stream().map(i -> read.get(i).eventId()).toList())
                    .isEqualTo(stream.eventIds(shard.shardId()));
            if (shard.parentShardId() != null) {
                List<Integer> parent = at.get(shard.parentShardId());
                assertThat(positions.get(0)).as(shard.shardId() + " after its parent")
                        .isGreaterThan(parent.get(parent.size() - 1));
            }
        }
    }

    @Test
    void verify_onThousandShards_readsThemSideBySide_andMeetsEachItemsRecordsInOrder() {
        SyntheticStream stream = new SyntheticStream(TREES, LATENCY);
        Rebuilder rebuilder = new Rebuilder(new EmptyTable(), stream, "synthetic",
                DomainRegistry.load().derivations(ShardSettings.DEFAULTS), 1).withStreamSettle(SETTLE);

        long started = System.nanoTime();
        VerificationReport report = rebuilder.verify();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        Duration sequential = stream.sequentialEstimate(SETTLE);
        print("Rebuilder.verify", stream, took, sequential);
        assertThat(stream.mostInFlight()).as("calls answered at once").isGreaterThan(1);
        assertThat(report.position().lastSequences()).isEqualTo(stream.lastSequences());
        // A post's removal read before its creation would leave it counted.
        assertThat(report.baseItems()).isEqualTo(stream.itemsAtTheEnd());
    }

    private static void print(String what, SyntheticStream stream, Duration took, Duration sequential) {
        System.out.printf("STREAM-READ %s: %d shards (%d open), %d records, %d calls of %d ms, settle %d ms, "
                        + "%d readers: %.1f s; one after the other at least %.1f s%n", what, stream.shardCount(),
                stream.openShards(), stream.records(), stream.calls(), LATENCY.toMillis(), SETTLE.toMillis(),
                Rebuilder.DEFAULT_STREAM_READERS, took.toMillis() / 1000.0, sequential.toMillis() / 1000.0);
    }

    /** A table with the synthetic stream enabled and no items: the scan finds nothing, the stream tells all. */
    private static final class EmptyTable implements DynamoDbClient {
        @Override
        public DescribeTableResponse describeTable(DescribeTableRequest request) {
            return DescribeTableResponse.builder().table(TableDescription.builder().tableName(request.tableName())
                    .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                            .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build())
                    .latestStreamArn(SyntheticStream.ARN).build()).build();
        }

        @Override
        public ScanResponse scan(ScanRequest request) {
            return ScanResponse.builder().items(List.of()).count(0).build();
        }

        /** The cursor registry's partitions, read before the scan: empty too. */
        @Override
        public QueryResponse query(QueryRequest request) {
            return QueryResponse.builder().items(List.of()).count(0).build();
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
