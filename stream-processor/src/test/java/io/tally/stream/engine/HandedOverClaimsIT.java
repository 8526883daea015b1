package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardCursorItem;
import io.tally.stream.engine.ShardCursors.Chain;
import io.tally.stream.engine.ShardCursors.Granted;
import io.tally.stream.engine.ShardCursors.Handover;
import io.tally.stream.engine.ShardCursors.Held;
import io.tally.stream.engine.ShardCursors.Pending;
import io.tally.stream.engine.ShardCursors.Progress;
import io.tally.testkit.CountingDynamoDb;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Claims handed over from one invocation of a shard to the next through the window's state ({@link Chain}), in
 * memory and on DynamoDB Local alike: one write a batch, the guards of {@link ShardCursorsIT} kept.
 */
class HandedOverClaimsIT {
    private static final String S10 = SourceRecord.pad("10");
    private static final String S20 = SourceRecord.pad("20");
    private static final String S30 = SourceRecord.pad("30");
    private static final String S40 = SourceRecord.pad("40");
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final DynamoDbClient CLIENT = LocalDynamoDb.client();
    private static final String TABLE = LocalDynamoDb.createTable("handed-over");

    static Stream<ShardCursors> cursors() {
        return Stream.of(new InMemoryShardCursors(), new DynamoDbShardCursors(CLIENT, TABLE));
    }

    private static String shard() {
        return "shardId-" + UUID.randomUUID();
    }

    private static ShardCursors.Lease lease(String holder, int seconds) {
        return new ShardCursors.Lease(holder, NOW.plusSeconds(seconds));
    }

    private static Chain handsOver() {
        return new Chain(null, true);
    }

    private static Chain from(String holder, String from, Progress progress) {
        return new Chain(new Handover(holder, from, progress), true);
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void handedOverClaim_isTakenOverByTheNextInvocation_withTheProgressHandedOver(ShardCursors cursors) {
        String shard = shard();
        assertThat(cursors.claim(shard, S10, S20, lease("a", 60), handsOver(), NOW)).isEqualTo(new Granted(Progress.NONE));

        Progress afterA = new Progress(null, S20);
        assertThat(cursors.claim(shard, S30, S30, lease("b", 60), from("a", S10, afterA), NOW.plusSeconds(1)))
                .isEqualTo(new Granted(afterA));
        // The claim in force is b's: another consumer, without b's state, is refused.
        assertThat(cursors.claim(shard, S40, S40, lease("c", 60), handsOver(), NOW.plusSeconds(2)))
                .isEqualTo(new Held("b", NOW.plusSeconds(60)));
        // b releases (the last invocation of its window): the next claim finds the progress it stored.
        Progress afterB = new Progress(null, S30);
        assertThat(cursors.release(shard, lease("b", 60), afterB, NOW.plusSeconds(3))).isTrue();
        assertThat(cursors.claim(shard, S40, S40, lease("c", 60), handsOver(), NOW.plusSeconds(4)))
                .isEqualTo(new Granted(afterB));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void staleHandover_isNotTakenOver_theClaimInForceHoldsTheShard(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 60), handsOver(), NOW);
        cursors.claim(shard, S30, S30, lease("b", 60), from("a", S10, new Progress(null, S20)), NOW);

        // a's state again (a retry with an older state, or a second consumer that saw it): b holds the shard.
        assertThat(cursors.claim(shard, S30, S30, lease("c", 60), from("a", S10, new Progress(null, S20)), NOW))
                .isEqualTo(new Held("b", NOW.plusSeconds(60)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void handoverWhoseAnswerWasLost_isRecognisedByItsOwnRetry(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 60), handsOver(), NOW);
        Chain fromA = from("a", S10, new Progress(null, S20));
        cursors.claim(shard, S30, S30, lease("b", 60), fromA, NOW);

        // The same claim again (the SDK's retry of a write that committed): its own claim, with the progress stored.
        assertThat(cursors.claim(shard, S30, S30, lease("b", 60), fromA, NOW.plusSeconds(1)))
                .isEqualTo(new Granted(new Progress(null, S20)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void lapsedHandedOverClaim_withoutTheState_isHeldUntilItLapses_thenTakenAsCompleted(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 10), handsOver(), NOW);

        assertThat(cursors.claim(shard, S30, S30, lease("c", 60), handsOver(), NOW.plusSeconds(5)))
                .isEqualTo(new Held("a", NOW.plusSeconds(10)));
        assertThat(cursors.claim(shard, S30, S30, lease("c", 60), handsOver(), NOW.plusSeconds(11)))
                .isEqualTo(new Granted(new Progress(null, S20)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void lapsedHandedOverClaim_overAPendingRecord_takenOverPastIt_clearsTheRecord(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S10, lease("a", 60), Chain.NONE, NOW);
        cursors.release(shard, lease("a", 60), new Progress(new Pending(S20, 1, NOW), null), NOW);
        // The retry from the pending record completes and hands its claim over; the progress past the record stays in
        // the state, which is lost.
        assertThat(cursors.claim(shard, S20, S30, lease("b", 10), handsOver(), NOW))
                .isEqualTo(new Granted(new Progress(new Pending(S20, 1, NOW), null)));

        assertThat(cursors.claim(shard, S40, S40, lease("c", 60), handsOver(), NOW.plusSeconds(5)))
                .isEqualTo(new Held("b", NOW.plusSeconds(10)));
        assertThat(cursors.claim(shard, S40, S40, lease("c", 60), handsOver(), NOW.plusSeconds(11)))
                .isEqualTo(new Granted(new Progress(null, S30)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void takeover_storesTheProgressItTakesAsDone_soThatItsOwnCrashLeavesNoStalePendingRecord(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S10, lease("a", 60), Chain.NONE, NOW);
        cursors.release(shard, lease("a", 60), new Progress(new Pending(S20, 1, NOW), null), NOW);
        cursors.claim(shard, S20, S30, lease("b", 10), handsOver(), NOW);
        assertThat(cursors.claim(shard, S40, S40, lease("c", 11), Chain.NONE, NOW.plusSeconds(11)))
                .isEqualTo(new Granted(new Progress(null, S30)));

        // c died: its batch is retried from its first record once its lease lapsed.
        assertThat(cursors.claim(shard, S40, S40, lease("d", 60), Chain.NONE, NOW.plusSeconds(30)))
                .isEqualTo(new Granted(new Progress(new Pending(S40, 0, null), S30)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void lapsedHandedOverClaim_pendingRecordPastIt_staysADeliveryPastTheFailure(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S10, lease("a", 60), Chain.NONE, NOW);
        cursors.release(shard, lease("a", 60), new Progress(new Pending(S30, 1, NOW), S10), NOW);
        cursors.claim(shard, S20, S20, lease("b", 10), handsOver(), NOW);

        assertThat(cursors.claim(shard, S40, S40, lease("c", 60), handsOver(), NOW.plusSeconds(60)))
                .isEqualTo(new ShardCursors.PastFailure(new Pending(S30, 1, NOW)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void lapsedHandedOverClaim_retriedFromItsFirstRecord_leavesItPending(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 10), handsOver(), NOW);

        // The invocation died; its mapping retries the batch with the state of the invocation before it (none here):
        // the retry's claim, over a dead one, is released at its batch's end rather than handed over.
        assertThat(cursors.claim(shard, S10, S20, lease("a2", 60), handsOver(), NOW.plusSeconds(11)))
                .isEqualTo(new Granted(new Progress(new Pending(S10, 0, null), null), false));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void retryOfABatchWhoseInvocationDied_isNotMarkedForATakeover_soThatAGiveUpPastItTripsTheGuard(
            ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 10), handsOver(), NOW);
        // Not to be handed over either: should a2 complete and its state be lost, a delivery past it could not take it
        // over; so a2 releases when it completes (DeadDuplicateClaimTest: seed 800's stall).
        assertThat(cursors.claim(shard, S10, S20, lease("a2", 20), handsOver(), NOW.plusSeconds(11)))
                .isEqualTo(new Granted(new Progress(new Pending(S10, 0, null), null), false));

        // a2 died too, and the mapping gave the batch up: a delivery past it meets its first record pending.
        assertThat(cursors.claim(shard, S30, S30, lease("c", 60), handsOver(), NOW.plusSeconds(60)))
                .isEqualTo(new ShardCursors.PastFailure(new Pending(S10, 0, null)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void lapsedHandedOverClaim_batchStartingWithinIt_isADeliveryPastTheFailure(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S30, lease("a", 10), handsOver(), NOW);

        // Past its first record but not its last: not a takeover, whatever the time.
        assertThat(cursors.claim(shard, S20, S30, lease("c", 60), handsOver(), NOW.plusSeconds(60)))
                .isEqualTo(new ShardCursors.PastFailure(new Pending(S10, 0, null)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void releasedClaim_isNotTakenOver_itsPendingRecordStands(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S10, lease("a", 60), handsOver(), NOW);
        cursors.release(shard, lease("a", 60), new Progress(new Pending(S20, 1, NOW), S10), NOW);
        cursors.claim(shard, S20, S40, lease("b", 1), Chain.NONE, NOW);

        // b's claim is to be released, not handed over: once it lapses its first record is pending for good.
        assertThat(cursors.claim(shard, SourceRecord.pad("50"), SourceRecord.pad("50"), lease("c", 60), handsOver(),
                NOW.plusSeconds(600))).isEqualTo(new ShardCursors.PastFailure(new Pending(S20, 1, NOW)));
    }

    @ParameterizedTest
    @MethodSource("cursors")
    void handedOverPendingRecord_refusesABatchPastIt(ShardCursors cursors) {
        String shard = shard();
        cursors.claim(shard, S10, S20, lease("a", 60), handsOver(), NOW);

        assertThat(cursors.claim(shard, S30, S30, lease("b", 60),
                from("a", S10, new Progress(new Pending(S20, 1, NOW), S10)), NOW))
                .isEqualTo(new ShardCursors.PastFailure(new Pending(S20, 1, NOW)));
    }

    @Test
    void dynamoDbHandover_isOneWriteABatch_andTheReleaseClearsTheMarks() {
        AtomicInteger writes = new AtomicInteger();
        // The cursor's entry in the cursor registry, once in a shard's life, is not the claim's.
        ShardCursors cursors = new DynamoDbShardCursors(CountingDynamoDb.counting(CLIENT,
                request -> request instanceof UpdateItemRequest update
                        && !update.updateExpression().startsWith("SET #registered"), writes), TABLE);
        String shard = shard();
        cursors.claim(shard, S10, S10, lease("a", 60), handsOver(), NOW);
        String previous = "a";
        String from = S10;
        for (int batch = 2; batch <= 10; batch++) {
            String first = SourceRecord.pad(Integer.toString(batch * 10));
            String holder = "h" + batch;
            assertThat(cursors.claim(shard, first, first, lease(holder, 60),
                    from(previous, from, new Progress(null, from)), NOW)).isInstanceOf(Granted.class);
            previous = holder;
            from = first;
        }
        assertThat(writes).as("cursor writes for 10 batches").hasValue(10);
        Map<String, AttributeValue> held = cursorItem(shard);
        assertThat(held.get(ShardCursorItem.ACKNOWLEDGED).s()).isEqualTo(SourceRecord.pad("90"));
        assertThat(held.get(ShardCursorItem.CLAIMED_TO).s()).isEqualTo(SourceRecord.pad("100"));

        assertThat(cursors.release(shard, lease(previous, 60), new Progress(null, from), NOW)).isTrue();
        assertThat(cursorItem(shard)).doesNotContainKeys(ShardCursorItem.HOLDER, ShardCursorItem.CLAIMED_FROM,
                ShardCursorItem.CLAIMED_TO);
    }

    private static Map<String, AttributeValue> cursorItem(String shard) {
        return CLIENT.getItem(r -> r.tableName(TABLE).consistentRead(true)
                .key(ShardCursorItem.key(Watermarks.token(shard)).toAttributeMap())).item();
    }
}
