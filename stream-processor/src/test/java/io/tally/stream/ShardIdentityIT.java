package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.InMemoryDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.testkit.LocalDynamoDb;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The delivered shard id against the stream's listing, on DynamoDB Local's real stream: every batch is checked, against
 * a listing kept in memory and shared by the environments (a cold one reads it rather than listing the stream), an
 * unlisted shard fails the batch before anything is written, and a listing that cannot be read fails nothing and is
 * asked again.
 */
class ShardIdentityIT {
    private static String streamArn;
    private static String shardId;

    @BeforeAll
    static void streamWithAShard() {
        String table = LocalDynamoDb.createTable("identity");
        LocalDynamoDb.client().putItem(r -> r.tableName(table).item(java.util.Map.of(
                "pk", AttributeValue.fromS("USER#u1"), "sk", AttributeValue.fromS("#USER#"))));
        streamArn = LocalDynamoDb.client().describeTable(r -> r.tableName(table)).table().latestStreamArn();
        shardId = LocalDynamoDb.streamsClient().describeStream(r -> r.streamArn(streamArn))
                .streamDescription().shards().get(0).shardId();
    }

    @Test
    void aListedShard_isConfirmedOnce_andEveryLaterBatchIsCheckedAgainstTheListingInMemory() {
        CountingStreams streams = new CountingStreams(LocalDynamoDb.streamsClient());
        ShardIdentity identity = new ShardIdentity(streams);

        identity.check(streamArn, shardId);
        identity.check(streamArn, shardId);
        assertThat(streams.describeStreamCalls.get()).as("DescribeStream calls for a known shard").isEqualTo(1);

        // A later batch of a shard the listing does not hold is checked too (listed again, then refused).
        assertThatThrownBy(() -> identity.check(streamArn, "shardId-of-a-later-batch"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shardId-of-a-later-batch");
        assertThat(streams.describeStreamCalls.get()).isEqualTo(2);
    }

    @Test
    void environmentsShareTheListing_aColdOneReadsItInsteadOfListingTheStream() {
        String table = LocalDynamoDb.createTable("listing");
        SharedListing shared = new SharedListing(LocalDynamoDb.client(), table);
        CountingStreams first = new CountingStreams(LocalDynamoDb.streamsClient());
        CountingStreams second = new CountingStreams(LocalDynamoDb.streamsClient());

        new ShardIdentity(first, shared, Clock.systemUTC()).check(streamArn, shardId);
        ShardIdentity cold = new ShardIdentity(second, shared, Clock.systemUTC());
        cold.check(streamArn, shardId);
        cold.check(streamArn, shardId);

        assertThat(first.describeStreamCalls.get()).isEqualTo(1);
        assertThat(second.describeStreamCalls.get()).as("DescribeStream calls of the cold environment").isZero();
        assertThat(shared.read(streamArn).tokens()).containsExactly(SharedListing.token(shardId));
        // A shard the shared listing does not hold: the cold environment lists the stream itself, and refuses it.
        assertThatThrownBy(() -> cold.check(streamArn, "shardId-00000001714564800000-0a1b2c3d"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(second.describeStreamCalls.get()).isEqualTo(1);
    }

    @Test
    void theSharedListing_keepsTheSoleParentsOfOpenShards_andAColdEnvironmentTellsThemToTheEngine() {
        String table = LocalDynamoDb.createTable("parents");
        SharedListing shared = new SharedListing(LocalDynamoDb.client(), table);
        String parent = "shardId-00000001700000000000-00000001";
        String child = "shardId-00000001700000001000-00000002";
        shared.write(streamArn, SharedListing.Listing.of(List.of(
                SharedListingTest.shard(parent, null, true), SharedListingTest.shard(child, parent, false),
                SharedListingTest.shard(shardId, null, false))), Instant.parse("2026-11-29T00:00:00Z"));
        CountingStreams streams = new CountingStreams(LocalDynamoDb.streamsClient());
        ShardIdentity cold = new ShardIdentity(streams, shared, Clock.systemUTC());

        cold.check(streamArn, shardId);

        assertThat(streams.describeStreamCalls.get()).as("DescribeStream calls").isZero();
        assertThat(cold.soleParent(child)).contains(parent);
        assertThat(cold.soleParent(parent)).isEmpty();
        assertThat(cold.soleParent(shardId)).isEmpty();
    }

    @Test
    void anUnlistedShard_failsTheBatch_withTheReason() {
        ShardIdentity identity = new ShardIdentity(LocalDynamoDb.streamsClient());

        assertThatThrownBy(() -> identity.check(streamArn, "shardId-00000001714564800000-0a1b2c3d"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shardId-00000001714564800000-0a1b2c3d")
                .hasMessageContaining("not among the 1 shards DescribeStream lists");
        // Not confirmed: the next batch is checked again.
        assertThatThrownBy(() -> identity.check(streamArn, "shardId-00000001714564800000-0a1b2c3d"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aListingThatCannotBeRead_failsNothing_andIsAskedAgain() {
        CountingStreams streams = new CountingStreams(LocalDynamoDb.streamsClient());
        ShardIdentity identity = new ShardIdentity(streams);
        String missing = streamArn.replace("/stream/", "-gone/stream/");

        identity.check(missing, shardId);
        identity.check(missing, shardId);
        identity.check(streamArn, shardId);
        identity.check(streamArn, shardId);

        assertThat(streams.describeStreamCalls.get()).isEqualTo(3);
    }

    @Test
    void theHandler_refusesABatchOfAnUnlistedShard_beforeTheEngineWritesAnything() {
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        RecordingPublisher publisher = new RecordingPublisher();
        InMemoryDeadLetterSink deadLetters = new InMemoryDeadLetterSink();
        Engine engine = Engine.builder().derivations(TestDerivations.blog()).store(store).publisher(publisher)
                .deadLetters(deadLetters).build();
        WindowedStreamHandler handler = new WindowedStreamHandler(engine, () -> { },
                new ShardIdentity(LocalDynamoDb.streamsClient()));
        DynamodbEvent.DynamodbStreamRecord record = new DynamodbEvent.DynamodbStreamRecord();
        record.setEventSourceARN(streamArn);
        DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
        event.setShardId("shardId-not-listed");
        event.setRecords(List.of(record));

        assertThatThrownBy(() -> handler.handleRequest(event, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shardId-not-listed");
        assertThat(store.items()).isEmpty();
        assertThat(publisher.publishedIds()).isEmpty();
        assertThat(deadLetters.letters()).isEmpty();
        engine.close();
    }

    /** The real streams client, counting its DescribeStream calls. */
    private static final class CountingStreams implements DynamoDbStreamsClient {
        private final DynamoDbStreamsClient delegate;
        private final AtomicInteger describeStreamCalls = new AtomicInteger();

        CountingStreams(DynamoDbStreamsClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
            describeStreamCalls.incrementAndGet();
            return delegate.describeStream(request);
        }

        @Override
        public String serviceName() {
            return delegate.serviceName();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
