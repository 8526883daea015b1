package io.tally.stream.engine;

import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.core.users.Users;
import io.tally.stream.engine.ShardCursors.Chain;
import io.tally.stream.engine.ShardCursors.Handover;
import io.tally.stream.testing.FlakyDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine's side of claims handed over through the window's state ({@link Chain}). */
class EngineHandoverTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    private final RecordingCursors cursors = new RecordingCursors();
    private final FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());
    private final Engine engine = Engine.builder()
            .derivations(TestDerivations.blog())
            .store(store)
            .deadLetters(new InMemoryDeadLetterSink())
            .publisher(new RecordingPublisher())
            .cursors(cursors)
            .releaseBackoff(Duration.ZERO)
            .build();

    @AfterEach
    void close() {
        engine.close();
    }

    private static List<SourceRecord> records() {
        TestRecords r = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "Hello", PostStatus.CREATED);
        r.put(p1.toItem());
        r.put(post("u2", "p2", "Other", PostStatus.CREATED).toItem());
        r.put(comment("c1", p1, "u2").toItem());
        r.put(comment("c2", p1, "u1").toItem());
        return r.records();
    }

    private static ShardCursors.Lease lease() {
        return new ShardCursors.Lease(UUID.randomUUID().toString(), Instant.now().plusSeconds(60));
    }

    @Test
    void completedBatches_handTheirClaimOver_andNeverRelease() {
        List<SourceRecord> all = records();
        ShardCursors.Lease first = lease();

        BatchResult one = engine.process(all.subList(0, 2), first, new Chain(null, true));
        BatchResult two = engine.process(all.subList(2, 4), lease(), new Chain(one.handover().orElseThrow(), true));

        assertThat(one.failedSequenceNumber()).isEmpty();
        assertThat(one.handover()).contains(new Handover(first.holder(), all.get(0).paddedSequence(),
                new ShardCursors.Progress(null, all.get(1).paddedSequence())));
        assertThat(two.handover().orElseThrow().progress().acknowledged()).isEqualTo(all.get(3).paddedSequence());
        assertThat(cursors.claims).isEqualTo(2);
        assertThat(cursors.releases).isZero();
    }

    @Test
    void lastInvocationOfAWindow_releases_andHandsNothingOver() {
        List<SourceRecord> all = records();
        BatchResult one = engine.process(all.subList(0, 2), lease(), new Chain(null, true));

        BatchResult last = engine.process(all.subList(2, 4), lease(), new Chain(one.handover().orElseThrow(), false));

        assertThat(last.handover()).isEmpty();
        assertThat(cursors.releases).isEqualTo(1);
        assertThat(cursors.inner.progress(SHARD).acknowledged()).isEqualTo(all.get(3).paddedSequence());
    }

    @Test
    void failedBatch_releasesWithItsPendingRecord_andHandsNothingOver() {
        List<SourceRecord> all = records();
        store.throttle(Users.statsKey("u2"));

        BatchResult failed = engine.process(all.subList(0, 4), lease(), new Chain(null, true));

        assertThat(failed.failedSequenceNumber()).isPresent();
        assertThat(failed.handover()).isEmpty();
        assertThat(cursors.releases).isEqualTo(1);
        assertThat(cursors.inner.pending(SHARD)).isNotNull();
    }

    @Test
    void releaseThatFails_failsTheWholeBatch_andHandsTheClaimOverAsItWasClaimed() {
        List<SourceRecord> all = records();
        store.throttle(Users.statsKey("u2"));
        cursors.failReleases = true;
        ShardCursors.Lease lease = lease();

        BatchResult failed = engine.process(all.subList(0, 4), lease, new Chain(null, true));

        assertThat(failed.failedSequenceNumber()).contains(all.get(0).sequenceNumber());
        assertThat(failed.handover()).contains(new Handover(lease.holder(), all.get(0).paddedSequence(),
                ShardCursors.Progress.NONE));
        // The retry, handed that claim, takes it over at once and completes.
        store.heal();
        cursors.failReleases = false;
        BatchResult retry = engine.process(all.subList(0, 4), lease(), new Chain(failed.handover().get(), true));
        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(retry.refusal()).isEmpty();
    }

    @Test
    void refusedBatch_passesTheClaimItReceivedOn() {
        List<SourceRecord> all = records();
        BatchResult one = engine.process(all.subList(0, 2), lease(), new Chain(null, true));
        // Another consumer, without the state, is refused while the claim handed over holds the shard ...
        BatchResult other = engine.process(all.subList(2, 4), lease(), new Chain(null, true));
        assertThat(other.refusal()).isPresent();
        assertThat(other.handover()).isEmpty();
        // ... and a refused invocation with the state passes on what it received.
        Handover stale = new Handover("gone", all.get(0).paddedSequence(), ShardCursors.Progress.NONE);
        BatchResult refused = engine.process(all.subList(2, 4), lease(), new Chain(stale, true));
        assertThat(refused.refusal()).isPresent();
        assertThat(refused.handover()).contains(stale);
        assertThat(one.handover()).isPresent();
    }

    @Test
    void refusedLastInvocationOfAWindow_releasesTheClaimItReceived() {
        List<SourceRecord> all = records();
        BatchResult one = engine.process(all.subList(0, 2), lease(), new Chain(null, true));
        Handover received = one.handover().orElseThrow();
        // A batch past a record still pending in the progress handed over is refused before any claim ...
        Handover pendingBefore = new Handover(received.holder(), received.from(), new ShardCursors.Progress(
                new ShardCursors.Pending(all.get(1).paddedSequence(), 1, Instant.now()), all.get(0).paddedSequence()));

        BatchResult last = engine.process(all.subList(2, 4), lease(), new Chain(pendingBefore, false));

        // ... and, the window ending, the claim it received is released with that progress, not passed on.
        assertThat(last.refusal()).isPresent();
        assertThat(last.handover()).isEmpty();
        assertThat(cursors.releases).isEqualTo(1);
        assertThat(cursors.inner.pending(SHARD)).isNotNull();
    }

    @Test
    void passOn_keepsTheClaimWithinAWindow_andReleasesItAtTheEnd() {
        List<SourceRecord> all = records();
        Handover received = engine.process(all.subList(0, 2), lease(), new Chain(null, true)).handover().orElseThrow();

        assertThat(engine.passOn(SHARD, new Chain(received, true))).isEqualTo(received);
        assertThat(cursors.releases).isZero();
        assertThat(engine.passOn(SHARD, new Chain(received, false))).isNull();
        assertThat(cursors.releases).isEqualTo(1);
        cursors.failReleases = true;
        assertThat(engine.passOn(SHARD, new Chain(received, false))).as("a release that fails").isEqualTo(received);
        assertThat(engine.passOn(SHARD, Chain.NONE)).isNull();
    }

    @Test
    void lastInvocationWithoutRecords_releasesTheClaimHandedOver() {
        List<SourceRecord> all = records();
        BatchResult one = engine.process(all.subList(0, 2), lease(), new Chain(null, true));

        assertThat(engine.releaseHandover(SHARD, one.handover().orElseThrow())).isTrue();

        assertThat(cursors.inner.progress(SHARD).acknowledged()).isEqualTo(all.get(1).paddedSequence());
        assertThat(engine.process(all.subList(2, 4), lease(), Chain.NONE).refusal()).isEmpty();
    }

    /** In-memory cursors that count claims and releases, and can fail releases. */
    private static final class RecordingCursors implements ShardCursors {
        final InMemoryShardCursors inner = new InMemoryShardCursors();
        int claims;
        int releases;
        boolean failReleases;

        @Override
        public String lineage(String shardId, ShardParents parents) {
            return inner.lineage(shardId, parents);
        }

        @Override
        public Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain,
                           Instant now) {
            claims++;
            return inner.claim(shardId, firstSequence, lastSequence, lease, chain, now);
        }

        @Override
        public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
            if (failReleases) {
                throw new IllegalStateException("no answer from the table");
            }
            releases++;
            return inner.release(shardId, lease, progress, now);
        }
    }
}
