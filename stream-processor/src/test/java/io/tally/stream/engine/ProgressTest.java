package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.users.Users;
import io.tally.stream.engine.ShardCursors.Pending;
import io.tally.stream.engine.ShardCursors.Progress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a shard's cursor records after a batch: the lowest record that may not be applied, and how far it is. */
class ProgressTest {
    private static final Instant T = Instant.parse("2026-11-23T10:00:00Z");
    private static final Instant LATER = T.plusSeconds(30);

    private static String s(int n) {
        return SourceRecord.pad(Integer.toString(n));
    }

    @Test
    void completedBatch_acknowledgesItsLastRecord_neverBackwards() {
        assertThat(Progress.NONE.after(s(10), s(20), null, T)).isEqualTo(new Progress(null, s(20)));
        assertThat(new Progress(null, s(50)).after(s(10), s(20), null, T)).isEqualTo(new Progress(null, s(50)));
    }

    @Test
    void completedBatch_clearsAPendingRecordItCovered_keepsOneAfterIt() {
        Pending at15 = new Pending(s(15), 2, T);
        assertThat(new Progress(at15, null).after(s(10), s(20), null, LATER)).isEqualTo(new Progress(null, s(20)));
        Pending at30 = new Pending(s(30), 2, T);
        assertThat(new Progress(at30, null).after(s(10), s(20), null, LATER)).isEqualTo(new Progress(at30, s(20)));
    }

    @Test
    void failure_becomesPending_andCountsAttemptsAtTheSameRecord() {
        Progress once = Progress.NONE.after(s(10), s(20), s(15), T);
        assertThat(once).isEqualTo(new Progress(new Pending(s(15), 1, T), null));
        assertThat(once.after(s(15), s(20), s(15), LATER)).isEqualTo(new Progress(new Pending(s(15), 2, T), null));
        // Past the old failure, stuck at a later one: counting starts again.
        assertThat(once.after(s(15), s(20), s(18), LATER)).isEqualTo(new Progress(new Pending(s(18), 1, LATER), null));
    }

    @Test
    void failureOfARecordAppliedBefore_changesNothing() {
        Progress acknowledged = new Progress(null, s(30));
        assertThat(acknowledged.after(s(10), s(20), s(15), T)).isEqualTo(acknowledged);
        Progress pending = new Progress(new Pending(s(40), 3, T), s(30));
        assertThat(pending.after(s(35), s(45), s(38), LATER)).isEqualTo(pending);
    }

    @Test
    void refusedItems_areCarriedOverByEveryOutcome_untilTheBatchSetsItsOwn() {
        RefusedItems refused = RefusedItems.NONE.after(List.of(Users.statsKey("u1")), List.of(), T);
        Progress remembering = new Progress(null, s(10), refused);

        assertThat(remembering.after(s(11), s(20), null, LATER).refused()).isEqualTo(refused);
        assertThat(remembering.after(s(11), s(20), s(15), LATER).refused()).isEqualTo(refused);
        assertThat(remembering.withAbandonedClaim(s(11)).refused()).isEqualTo(refused);
        assertThat(remembering.withRefused(RefusedItems.NONE)).isEqualTo(new Progress(null, s(10)));
    }

    @Test
    void outage_isCarriedOverByEveryOutcome_untilTheBatchSetsItsOwn() {
        ShardCursors.Outage outage = ShardCursors.Outage.begin(T);
        Progress inOutage = new Progress(new Pending(s(15), 5, T), s(10)).withOutage(outage);

        assertThat(inOutage.after(s(15), s(20), null, LATER).outage()).isEqualTo(outage);
        assertThat(inOutage.after(s(15), s(20), s(18), LATER).outage()).isEqualTo(outage);
        assertThat(inOutage.after(s(5), s(8), s(6), LATER).outage()).isEqualTo(outage);
        assertThat(inOutage.withAbandonedClaim(s(12)).outage()).isEqualTo(outage);
        assertThat(inOutage.withRefused(RefusedItems.NONE).outage()).isEqualTo(outage);
        assertThat(inOutage.withOutage(null)).isEqualTo(new Progress(new Pending(s(15), 5, T), s(10)));
    }

    @Test
    void outage_isInForceUntilAGiveUpPeriodPassedSinceItLastFiled_inMilliseconds() {
        ShardCursors.Outage outage = ShardCursors.Outage.begin(Instant.parse("2026-11-23T10:00:00.123456Z"))
                .filed(Instant.parse("2026-11-23T10:04:00.000999Z"));

        assertThat(outage.since()).isEqualTo(Instant.parse("2026-11-23T10:00:00.123Z"));
        assertThat(outage.lastFiled()).isEqualTo(Instant.parse("2026-11-23T10:04:00Z"));
        assertThat(outage.inForce(Instant.parse("2026-11-23T10:13:59.999Z"), Duration.ofMinutes(10))).isTrue();
        assertThat(outage.inForce(Instant.parse("2026-11-23T10:14:00Z"), Duration.ofMinutes(10))).isFalse();
    }
}
