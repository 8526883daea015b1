package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardSettings;
import io.tally.core.ShardToken;
import io.tally.core.StreamShards;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.SharedReads;
import io.tally.core.users.User;
import io.tally.core.users.Users;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardParents;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.StreamReader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Shard lineages on a real stream: DynamoDB Local rolls a table's shard over ({@code triggerShardRollovers}), and the
 * child, told of its parent by {@code DescribeStream}'s listing, goes on writing its parent's partials; a repair that
 * reaches the child before the stream processor settles the child's lineage as the processor would, so that nothing
 * is counted twice when the processor gets there.
 */
class LineageRolloverIT {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final DynamoDbStreamsClient streams = LocalDynamoDb.streamsClient();
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    private void putUsers(String table, String... ids) {
        for (String id : ids) {
            dynamo.putItem(r -> r.tableName(table).item(new User(id, "n", id + "@example.com", T0, T0, 1).toItem()));
        }
    }

    /** A table with users written before and after a rollover of its shard: the parent, then its one child. */
    private List<Shard> rolledOver(String table) {
        putUsers(table, "u1", "u2");
        LocalDynamoDb.instance().triggerShardRollovers();
        putUsers(table, "u3");
        List<Shard> shards = StreamShards.listed(streams, StreamReader.streamArn(streams, table));
        assertThat(shards).as("the parent and its child").hasSize(2);
        assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
        return shards;
    }

    private Engine engine(String table, ShardParents parents) {
        return Engine.builder().derivations(derivations)
                .store(new DynamoDbDerivedStore(dynamo, table))
                .cursors(new DynamoDbShardCursors(dynamo, table))
                .deadLetters(new DynamoDbDeadLetterSink(dynamo, table))
                .publisher(new RecordingPublisher())
                .parents(parents)
                .build();
    }

    private long users(String table) {
        long users = 0;
        for (int slot = 0; slot < ShardSettings.DEFAULTS.global(); slot++) {
            Map<String, AttributeValue> whole = SharedReads.whole(dynamo, table, Users.globalStatsKey(slot), null);
            AttributeValue count = whole == null ? null : whole.get(Users.GLOBAL_USERS.attribute());
            users += count == null ? 0 : Long.parseLong(count.n());
        }
        return users;
    }

    private List<String> partialLineages(String table) {
        return dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
                .map(Key::of).filter(PartialKeys::isPartial).map(PartialKeys::partialToken).distinct().toList();
    }

    @Test
    void theChildOfARollover_writesItsParentsPartials_exact() {
        String table = LocalDynamoDb.createTable("rollover");
        List<Shard> shards = rolledOver(table);
        Map<String, List<SourceRecord>> records = StreamReader.readAll(streams, table, StreamRecords::fromSdk);

        try (Engine engine = engine(table, ShardParents.of(shards))) {
            for (Shard shard : shards) {
                assertThat(engine.process(records.get(shard.shardId())).failedSequenceNumber()).isEmpty();
            }
        }

        assertThat(users(table)).isEqualTo(3);
        assertThat(partialLineages(table)).as("the partials of the parent's lineage only")
                .containsExactly(ShardToken.of(shards.get(0).shardId()));
        VerificationReport verified = new Rebuilder(dynamo, streams, table, derivations, 2).verify();
        assertThat(verified.differences()).isEmpty();
        assertThat(verified.isExact()).isTrue();
    }

    @Test
    void aRepairBeforeTheProcessorReachesTheChild_settlesItsLineage_andNothingIsCountedTwice() {
        String table = LocalDynamoDb.createTable("rollover-repair");
        List<Shard> shards = rolledOver(table);
        Map<String, List<SourceRecord>> records = StreamReader.readAll(streams, table, StreamRecords::fromSdk);
        try (Engine engine = engine(table, ShardParents.of(shards))) {
            assertThat(engine.process(records.get(shards.get(0).shardId())).failedSequenceNumber()).isEmpty();
        }

        // The processor is behind on the child; a repair writes every figure at the stream's position.
        RepairReport repaired = new Rebuilder(dynamo, streams, table, derivations, 2).repair(count -> { });
        assertThat(repaired.failed()).isEmpty();
        assertThat(users(table)).isEqualTo(3);
        // Then the processor reaches the child, told of its parent: the lineage the repair settled holds.
        try (Engine cold = engine(table, ShardParents.of(shards))) {
            assertThat(cold.process(records.get(shards.get(1).shardId())).failedSequenceNumber()).isEmpty();
        }

        assertThat(users(table)).as("the child's user counted once").isEqualTo(3);
        assertThat(new Rebuilder(dynamo, streams, table, derivations, 2).verify().isExact()).isTrue();
    }
}
