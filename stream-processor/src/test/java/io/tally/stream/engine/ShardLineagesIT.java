package io.tally.stream.engine;

import static io.tally.stream.testing.TestDerivations.partial;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.User;
import io.tally.core.users.Users;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestRecords;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Shard lineages ({@link ShardCursors#lineage}): a shard that continues its parent alone goes on writing the parent's
 * partials; the lineage is settled once and never changes; the in-memory cursors behave as the DynamoDB ones.
 */
class ShardLineagesIT {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final DynamoDbClient CLIENT = LocalDynamoDb.client();
    private static final String TABLE = LocalDynamoDb.createTable("lineages");

    static Stream<ShardCursors> cursors() {
        return Stream.of(new InMemoryShardCursors(), new DynamoDbShardCursors(CLIENT, TABLE));
    }

    private static String shard() {
        return "shardId-" + UUID.randomUUID();
    }

    private static ShardParents parentOf(String child, String parent) {
        return shardId -> shardId.equals(child) ? Optional.of(parent) : Optional.empty();
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void aShardWithoutAParent_startsItsOwnLineage_settledOnce(ShardCursors cursors) {
        String shard = shard();

        assertThat(cursors.lineage(shard, ShardParents.NONE)).isEqualTo(shard);
        // Settled: what the listing says later changes nothing.
        assertThat(cursors.lineage(shard, parentOf(shard, shard()))).isEqualTo(shard);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void rollovers_continueTheFirstShardsLineage_generationAfterGeneration(ShardCursors cursors) {
        String root = shard();
        String child = shard();
        String grandchild = shard();
        assertThat(cursors.lineage(root, ShardParents.NONE)).isEqualTo(root);

        assertThat(cursors.lineage(child, parentOf(child, root))).isEqualTo(root);
        assertThat(cursors.lineage(grandchild, parentOf(grandchild, child))).isEqualTo(root);
        assertThat(cursors.lineage(grandchild, ShardParents.NONE)).as("settled").isEqualTo(root);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void theChildOfAParentTallyNeverSaw_startsItsOwnLineage(ShardCursors cursors) {
        String child = shard();

        assertThat(cursors.lineage(child, parentOf(child, shard()))).isEqualTo(child);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void aCursorClaimedBeforeLineages_keepsItsShardsOwnId_whichItsPartialsWereWrittenUnder(ShardCursors cursors) {
        String root = shard();
        String old = shard();
        cursors.lineage(root, ShardParents.NONE);
        ShardCursors.Lease lease = new ShardCursors.Lease("a", NOW.plusSeconds(60));
        cursors.claim(old, SourceRecord.pad("10"), lease, NOW);
        cursors.release(old, lease, new ShardCursors.Progress(null, SourceRecord.pad("10")), NOW);

        assertThat(cursors.lineage(old, parentOf(old, root))).isEqualTo(old);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void aLineageSettledBeforeTheFirstClaim_isKeptByTheClaims_andTheFirstClaimFindsNothingApplied(
            ShardCursors cursors) {
        String root = shard();
        String child = shard();
        cursors.lineage(root, ShardParents.NONE);
        cursors.lineage(child, parentOf(child, root));
        ShardCursors.Lease lease = new ShardCursors.Lease("a", NOW.plusSeconds(60));

        assertThat(cursors.claim(child, SourceRecord.pad("10"), lease, NOW))
                .isEqualTo(new ShardCursors.Granted(ShardCursors.Progress.NONE));
        cursors.release(child, lease, new ShardCursors.Progress(null, SourceRecord.pad("10")), NOW);
        assertThat(cursors.lineage(child, ShardParents.NONE)).isEqualTo(root);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void aClaimOfAnEngineBeforeLineages_betweenTheReadAndTheWrite_keepsTheShardsOwnId(ShardCursors cursors) {
        String root = shard();
        String shard = shard();
        cursors.lineage(root, ShardParents.NONE);
        ShardCursors.Lease lease = new ShardCursors.Lease("old", NOW.plusSeconds(60));
        // The listing is asked after the shard's cursor was read: an engine before lineages claims the shard then.
        ShardParents claimingMeanwhile = shardId -> {
            cursors.claim(shard, SourceRecord.pad("10"), lease, NOW);
            return Optional.of(root);
        };

        assertThat(cursors.lineage(shard, claimingMeanwhile)).isEqualTo(shard);
        assertThat(cursors.lineage(shard, parentOf(shard, root))).isEqualTo(shard);
    }

    /**
     * Through the engine: a user's stats counted by a parent shard and its child land in one partial, the parent's,
     * which carries both shards' watermarks; a redelivery of the parent's batch afterwards counts nothing twice.
     */
    @Test
    void theEngine_aChildShardWritesItsParentsPartials_andARedeliveryCountsNothingTwice() {
        String parent = "shardId-00000001714564800000-0a1b2c3d";
        String child = "shardId-00000001714579200000-0a1b2c3e";
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        try (Engine engine = Engine.builder().derivations(DomainRegistry.load().derivations(ShardSettings.DEFAULTS))
                .store(store).deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher())
                .cursors(new DynamoDbShardCursors(CLIENT, TABLE)).parents(parentOf(child, parent)).build()) {
            TestRecords before = new TestRecords(parent);
            before.put(new User("u1", "n", "e@x.io", TestRecords.T0, TestRecords.T0, 1).toItem());
            TestRecords after = new TestRecords(child);
            after.put(new User("u2", "n", "e@x.io", TestRecords.T0, TestRecords.T0, 1).toItem());

            assertThat(engine.process(before.records()).failedSequenceNumber()).isEmpty();
            assertThat(engine.process(after.records()).failedSequenceNumber()).isEmpty();
            assertThat(engine.process(before.records()).failedSequenceNumber()).as("redelivered").isEmpty();
            // The child's batch again, in a cold environment told of no parent: the lineage stored in its cursor holds.
            try (Engine cold = Engine.builder()
                    .derivations(DomainRegistry.load().derivations(ShardSettings.DEFAULTS)).store(store)
                    .deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher())
                    .cursors(new DynamoDbShardCursors(CLIENT, TABLE)).build()) {
                assertThat(cold.process(after.records()).failedSequenceNumber()).as("redelivered cold").isEmpty();
            }

            long users = 0;
            int partials = 0;
            for (int slot = 0; slot < ShardSettings.DEFAULTS.global(); slot++) {
                users += store.whole(Users.globalStatsKey(slot)).map(item -> Long.parseLong(
                        item.get(Users.GLOBAL_USERS.attribute()).n())).orElse(0L);
                Optional<Map<String, AttributeValue>> shared = store.item(partial(Users.globalStatsKey(slot), parent));
                if (shared.isPresent()) {
                    partials++;
                    assertThat(shared.get().keySet().stream().filter(Watermarks::isWatermark).toList())
                            .containsExactlyInAnyOrder(Watermarks.attributeName(parent),
                                    Watermarks.attributeName(child));
                }
                assertThat(store.item(partial(Users.globalStatsKey(slot), child))).as("a partial of the child's own")
                        .isEmpty();
            }
            assertThat(users).isEqualTo(2);
            assertThat(partials).as("the lineage's one partial of the global totals").isEqualTo(1);
        }
    }
}
