package io.tally.stream.engine;

import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import io.tally.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Claims of invocations that died must not stop a shard for good, through the engine: the fault test's seed 538 (a
 * duplicate delivery before the pending record whose claim's answer is lost) and seed 800 (a retry over a dead claim
 * handed over, whose own state is lost).
 */
class DeadDuplicateClaimTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    private final MutableClock clock = new MutableClock(TestRecords.T0);
    private final AnswerLosingCursors cursors = new AnswerLosingCursors();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final Engine engine = Engine.builder()
            .derivations(TestDerivations.blog())
            .store(new InMemoryDerivedStore())
            .deadLetters(new InMemoryDeadLetterSink())
            .publisher(publisher)
            .cursors(cursors)
            .clock(clock)
            .lease(Duration.ofSeconds(1))
            .releaseBackoff(Duration.ZERO)
            .build();

    @AfterEach
    void close() {
        engine.close();
    }

    /** A post and two comments on it: three records, each with work and an event. */
    private static List<SourceRecord> records() {
        TestRecords r = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "Hello", PostStatus.CREATED);
        r.put(p1.toItem());
        r.put(comment("c1", p1, "u2").toItem());
        r.put(comment("c2", p1, "u1").toItem());
        return r.records();
    }

    @Test
    void duplicateWhoseClaimAnswerIsLost_beforeThePendingRecord_doesNotStopTheRetryFromIt() {
        List<SourceRecord> all = records();
        SourceRecord last = all.get(2);
        publisher.refuse(event -> event.id().startsWith(last.eventId()));

        BatchResult failed = engine.process(all);
        assertThat(failed.failedSequenceNumber()).contains(last.sequenceNumber());

        // The mapping delivers the applied start again; the claim is written, its answer lost.
        cursors.loseNextClaimAnswer = true;
        assertThat(engine.process(all.subList(0, 1)).refusal()).hasValueSatisfying(
                refusal -> assertThat(refusal).startsWith("cursor unavailable"));

        // Its lease lapses; the retry from the pending record runs, and publishes what was refused.
        clock.advance(Duration.ofSeconds(2));
        publisher.refuse(event -> false);
        BatchResult retry = engine.process(all.subList(2, 3));

        assertThat(retry.refusal()).isEmpty();
        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(publisher.published()).anyMatch(event -> event.id().startsWith(last.eventId()));
        assertThat(cursors.inner.pending(SHARD)).isNull();
    }

    /**
     * The fault test's seed 800 (the windowed handler): a batch handed a claim over and its invocation died (the claim
     * lapses, marked for a takeover); the mapping delivered the batch again without the state, and the retry, whose
     * claim over the dead one is not marked for a takeover, completed. Had it handed its claim over too, and that state
     * been lost (a crash's lost response, a window ended), no delivery past it could take the claim over: the shard
     * would be refused for good, past the dead claim's first record. It releases instead.
     */
    @Test
    void retryOverADeadClaim_thatCompletes_releases_soThatADeliveryWithoutTheStateRuns() {
        List<SourceRecord> all = records();

        BatchResult died = engine.process(all.subList(0, 2), lease(), new ShardCursors.Chain(null, true));
        assertThat(died.handover()).as("handed over, then lost with its invocation").isPresent();
        clock.advance(Duration.ofSeconds(2));
        BatchResult retry = engine.process(all.subList(0, 2), lease(), new ShardCursors.Chain(null, true));
        assertThat(retry.failedSequenceNumber()).isEmpty();

        // The retry's state is lost: the next delivery, past its batch, comes without it.
        clock.advance(Duration.ofSeconds(2));
        BatchResult past = engine.process(all.subList(2, 3), lease(), new ShardCursors.Chain(null, true));
        assertThat(past.refusal()).isEmpty();
        assertThat(past.failedSequenceNumber()).isEmpty();
        assertThat(retry.handover()).as("released, not handed over").isEmpty();
    }

    private ShardCursors.Lease lease() {
        return new ShardCursors.Lease(UUID.randomUUID().toString(), clock.instant().plusSeconds(1));
    }

    /** In-memory cursors whose next claim is written, then reported failed (its answer lost). */
    private static final class AnswerLosingCursors implements ShardCursors {
        final InMemoryShardCursors inner = new InMemoryShardCursors();
        boolean loseNextClaimAnswer;

        @Override
        public String lineage(String shardId, ShardParents parents) {
            return inner.lineage(shardId, parents);
        }

        @Override
        public Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain,
                           Instant now) {
            Claim claim = inner.claim(shardId, firstSequence, lastSequence, lease, chain, now);
            if (loseNextClaimAnswer) {
                loseNextClaimAnswer = false;
                throw new IllegalStateException("injected: the claim's answer was lost");
            }
            return claim;
        }

        @Override
        public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
            return inner.release(shardId, lease, progress, now);
        }
    }
}
