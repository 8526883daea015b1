package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.users.Users;
import io.tally.stream.engine.ShardCursors.Progress;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The in-memory cursors must behave as the DynamoDB ones do: the engine's unit tests rely on them. */
class ShardCursorsIT {
    private static final String S10 = SourceRecord.pad("10");
    private static final String S20 = SourceRecord.pad("20");
    private static final String S30 = SourceRecord.pad("30");
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private static final DynamoDbClient CLIENT = LocalDynamoDb.client();
    private static final String TABLE = LocalDynamoDb.createTable("shard-cursors");

    static Stream<ShardCursors> cursors() {
        return Stream.of(new InMemoryShardCursors(), new DynamoDbShardCursors(CLIENT, TABLE));
    }

    private static String shard() {
        return "shardId-" + UUID.randomUUID();
    }

    private static ShardCursors.Lease lease(String holder, int seconds) {
        return new ShardCursors.Lease(holder, NOW.plusSeconds(seconds));
    }

    private static ShardCursors.Progress failedAt(String sequence, int attempts) {
        return new ShardCursors.Progress(new ShardCursors.Pending(sequence, attempts, NOW), null);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void firstClaim_isGranted_andAReleasedShardIsFree(ShardCursors cursors) {
        String shard = shard();
        assertThat(cursors.claim(shard, S10, lease("a", 60), NOW)).isEqualTo(new ShardCursors.Granted(Progress.NONE));
        assertThat(cursors.release(shard, lease("a", 60), new Progress(null, S20), NOW)).isTrue();

        assertThat(cursors.claim(shard, S30, lease("b", 60), NOW))
                .isEqualTo(new ShardCursors.Granted(new Progress(null, S20)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void liveLease_refusesOtherHolders_notItsOwn_andLapses(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, lease("a", 60), NOW);

        assertThat(cursors.claim(shard, S10, lease("b", 60), NOW))
                .isEqualTo(new ShardCursors.Held("a", NOW.plusSeconds(60)));
        assertThat(cursors.claim(shard, S10, lease("a", 60), NOW)).isInstanceOf(ShardCursors.Granted.class);
        assertThat(cursors.claim(shard, S10, lease("b", 60), NOW.plusSeconds(61)))
                .isEqualTo(new ShardCursors.Granted(new Progress(new ShardCursors.Pending(S10, 0, null), null)));
        // The lapsed holder's release changes nothing.
        assertThat(cursors.release(shard, lease("a", 60), new Progress(null, S20), NOW)).isFalse();
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void pendingRecord_refusesLaterStarts_admitsEarlierOnes_andKeepsItsAttempts(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, lease("a", 60), NOW);
        assertThat(cursors.release(shard, lease("a", 60), failedAt(S20, 1), NOW)).isTrue();

        assertThat(cursors.claim(shard, S30, lease("b", 60), NOW))
                .isEqualTo(new ShardCursors.PastFailure(new ShardCursors.Pending(S20, 1, NOW)));
        assertThat(cursors.claim(shard, S20, lease("c", 60), NOW)).isEqualTo(new ShardCursors.Granted(failedAt(S20, 1)));
        cursors.release(shard, lease("c", 60), failedAt(S20, 2), NOW);

        assertThat(cursors.claim(shard, S10, lease("d", 60), NOW)).isEqualTo(new ShardCursors.Granted(failedAt(S20, 2)));
        cursors.release(shard, lease("d", 60), new Progress(null, S30), NOW);
        assertThat(cursors.claim(shard, S30, lease("e", 60), NOW))
                .isEqualTo(new ShardCursors.Granted(new Progress(null, S30)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void claimNeverReleased_leavesItsFirstRecordPendingOnceItLapses(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S20, lease("crashed", 1), NOW);

        assertThat(cursors.claim(shard, S30, lease("b", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.PastFailure(new ShardCursors.Pending(S20, 0, null)));
        assertThat(cursors.claim(shard, S10, lease("b", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.Granted(new Progress(new ShardCursors.Pending(S20, 0, null), null)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void retryFromBeforeAPendingRecord_admittedAfterTheClaimAtItDied(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, lease("a", 60), NOW);
        cursors.release(shard, lease("a", 60), failedAt(S20, 1), NOW);
        cursors.claim(shard, S20, lease("crashed", 1), NOW);

        assertThat(cursors.claim(shard, S10, lease("b", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.Granted(failedAt(S20, 1)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void claimNeverReleased_ofAnAcknowledgedRange_blocksNothing(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, lease("a", 60), NOW);
        cursors.release(shard, lease("a", 60), new Progress(null, S30), NOW);
        // A redelivery of an old range that died.
        cursors.claim(shard, S20, lease("duplicate", 1), NOW);

        assertThat(cursors.claim(shard, SourceRecord.pad("40"), lease("b", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.Granted(new Progress(null, S30)));
    }

    /**
     * Seed 538's stall in the fault test: a duplicate delivery of records before the pending one, whose claim's answer
     * was lost, left a claim that no later delivery could pass, each refused as past the claim's first record.
     */
    @ParameterizedTest
    @MethodSource("cursors")
    void claimNeverReleased_beforeThePendingRecord_blocksNothing(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, lease("a", 60), NOW);
        cursors.release(shard, lease("a", 60), failedAt(S30, 1), NOW);
        // A redelivery of records before the pending one, whose invocation died holding the claim.
        cursors.claim(shard, S20, lease("duplicate", 1), NOW);

        assertThat(cursors.claim(shard, S30, lease("b", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.Granted(failedAt(S30, 1)));
        // Past the pending record is still refused, as the pending record's, not the dead claim's.
        cursors.release(shard, lease("b", 60), failedAt(S30, 2), NOW);
        cursors.claim(shard, S20, lease("duplicate-again", 1), NOW);
        assertThat(cursors.claim(shard, SourceRecord.pad("40"), lease("c", 60), NOW.plusSeconds(5)))
                .isEqualTo(new ShardCursors.PastFailure(new ShardCursors.Pending(S30, 2, NOW)));
    }

    @org.junit.jupiter.api.Test
    void dynamoDbCursor_isAShardCursorItemKeyedByTheShardToken() {
        String shard = shard();
        new DynamoDbShardCursors(CLIENT, TABLE).claim(shard, S10, lease("a", 60), NOW);

        Map<String, AttributeValue> item = CLIENT.getItem(r -> r.tableName(TABLE).consistentRead(true)
                .key(ShardCursorItem.key(Watermarks.token(shard)).toAttributeMap())).item();

        assertThat(item.get(TableSchema.ENTITY_TYPE).s()).isEqualTo("ShardCursor");
        assertThat(item.get(ShardCursorItem.SHARD_ID).s()).isEqualTo(shard);
        assertThat(item.get(ShardCursorItem.CLAIMED_FROM).s()).isEqualTo(S10);
        assertThat(item.get(ShardCursorItem.HOLDER).s()).isEqualTo("a");
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void refusedItems_areKeptByTheRelease_andTheClaimReturnsThem(ShardCursors cursors) {
        String shard = shard();
        RefusedItems refused = RefusedItems.NONE.after(List.of(Users.statsKey("u1"), Users.statsKey("u2")), List.of(),
                NOW.plusMillis(7));
        Progress remembering = new Progress(null, S20, refused);
        cursors.claim(shard, S10, lease("a", 60), NOW);
        assertThat(cursors.release(shard, lease("a", 60), remembering, NOW)).isTrue();
        // A repeated release (its first answer lost) recognises the progress it stored.
        assertThat(cursors.release(shard, lease("a", 60), remembering, NOW)).isTrue();

        assertThat(cursors.claim(shard, S30, lease("b", 60), NOW)).isEqualTo(new ShardCursors.Granted(remembering));
        assertThat(cursors.release(shard, lease("b", 60), new Progress(null, S30), NOW)).isTrue();
        assertThat(cursors.claim(shard, S30, lease("c", 60), NOW))
                .isEqualTo(new ShardCursors.Granted(new Progress(null, S30)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void outage_isKeptByTheRelease_andTheClaimReturnsIt_untilAReleaseClearsIt(ShardCursors cursors) {
        String shard = shard();
        ShardCursors.Outage outage = ShardCursors.Outage.begin(NOW.plusMillis(7)).filed(NOW.plusSeconds(90));
        Progress inOutage = new Progress(new ShardCursors.Pending(S20, 5, NOW), S10).withOutage(outage);
        cursors.claim(shard, S10, lease("a", 60), NOW);
        assertThat(cursors.release(shard, lease("a", 60), inOutage, NOW)).isTrue();
        // A repeated release (its first answer lost) recognises the progress it stored.
        assertThat(cursors.release(shard, lease("a", 60), inOutage, NOW)).isTrue();

        // Another execution environment's claim learns of the outage.
        assertThat(cursors.claim(shard, S20, lease("b", 60), NOW)).isEqualTo(new ShardCursors.Granted(inOutage));
        assertThat(cursors.release(shard, lease("b", 60), new Progress(null, S30), NOW)).isTrue();
        assertThat(cursors.claim(shard, S30, lease("c", 60), NOW))
                .isEqualTo(new ShardCursors.Granted(new Progress(null, S30)));
    }

    @org.junit.jupiter.api.Test
    void dynamoDbCursor_storesTheOutageAsTwoTimestamps_absentWithoutOne() {
        String shard = shard();
        DynamoDbShardCursors cursors = new DynamoDbShardCursors(CLIENT, TABLE);
        cursors.claim(shard, S10, lease("a", 60), NOW);
        cursors.release(shard, lease("a", 60), new Progress(null, S20)
                .withOutage(ShardCursors.Outage.begin(NOW).filed(NOW.plusSeconds(90))), NOW);

        Map<String, AttributeValue> item = cursorItem(shard);
        assertThat(item.get(ShardCursorItem.OUTAGE_SINCE).s()).isEqualTo("2026-11-23T10:00:00.000Z");
        assertThat(item.get(ShardCursorItem.OUTAGE_LAST_FILED).s()).isEqualTo("2026-11-23T10:01:30.000Z");

        cursors.claim(shard, S30, lease("b", 60), NOW);
        cursors.release(shard, lease("b", 60), new Progress(null, S30), NOW);
        assertThat(cursorItem(shard)).doesNotContainKeys(ShardCursorItem.OUTAGE_SINCE,
                ShardCursorItem.OUTAGE_LAST_FILED);
    }

    private static Map<String, AttributeValue> cursorItem(String shard) {
        return CLIENT.getItem(r -> r.tableName(TABLE).consistentRead(true)
                .key(ShardCursorItem.key(Watermarks.token(shard)).toAttributeMap())).item();
    }
}
