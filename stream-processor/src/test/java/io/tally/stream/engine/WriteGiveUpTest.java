package io.tally.stream.engine;

import static io.tally.stream.testing.TestDerivations.partial;
import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.users.Users;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.testing.FlakyDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import io.tally.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shard's memory of the derived items it gave up writing: their next refusal is filed at once. */
class WriteGiveUpTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final Duration PERIOD = Duration.ofMinutes(10);
    private static final Key U1 = Users.statsKey("u1");
    private static final Key U2 = Users.statsKey("u2");
    /** What the engine writes of u2's stats, which are shared: the shard's partial. */
    private static final Key U2_WRITTEN = partial(U2, SHARD);

    private final InMemoryDeadLetterSink sink = new InMemoryDeadLetterSink();
    private final InMemoryShardCursors cursors = new InMemoryShardCursors();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock(TestRecords.T0.plusSeconds(30));
    private final FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());
    private final Engine engine = Engine.builder()
            .derivations(TestDerivations.blog())
            .store(store)
            .deadLetters(sink)
            .publisher(new RecordingPublisher())
            .cursors(cursors)
            .metrics(new StreamMetrics(registry))
            .clock(clock)
            .writeGiveUp(3, PERIOD)
            .build();
    private final List<SourceRecord> all = blog().records();

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    private static TestRecords blog() {
        TestRecords r = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "Hello", PostStatus.CREATED);
        Post p2 = post("u2", "p2", "Other", PostStatus.CREATED);
        r.put(p1.toItem());                                                   // 0: u1 posts
        r.put(p2.toItem());                                                   // 1: u2 posts
        r.put(comment("c1", p1, "u2").toItem());                              // 2: u2 comments
        r.put(comment("c2", p2, "u1").toItem());                              // 3: u1 comments
        r.put(post("u1", "p1", "Hello again", PostStatus.UPDATED).toItem());  // 4: status change
        r.put(comment("c3", p1, "u2").toItem());                              // 5: u2 comments
        r.put(post("u2", "p3", "Third", PostStatus.CREATED).toItem());        // 6: u2 posts
        return r;
    }

    /** Records 0 to 2, retried at record 1 (u2's first) until its refused write is given up on. */
    private void giveUpU2() {
        assertThat(engine.process(all.subList(0, 3)).failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        clock.advance(PERIOD);
        assertThat(engine.process(all.subList(1, 3)).failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        BatchResult givenUp = engine.process(all.subList(1, 3));
        assertThat(givenUp.failedSequenceNumber()).isEmpty();
        assertThat(givenUp.writesDeadLettered()).isEqualTo(1);
        assertThat(givenUp.failedWrites()).isZero();
        assertThat(sink.letters()).singleElement().satisfies(letter -> assertThat(letter.reason())
                .contains("refused after 3 attempts"));
    }

    private double deadLettered() {
        return registry.counter(StreamMetrics.WRITES_DEAD_LETTERED).count();
    }

    @Test
    void itemGivenUpOn_isRemembered_soALaterBatchItRefusesIsFiledAtOnce_withoutWaitingThePeriodAgain() {
        store.refuseForGood(U2);
        giveUpU2();
        Instant givenUpAt = clock.instant();
        assertThat(cursors.progress(SHARD).refused().since(U2_WRITTEN)).isEqualTo(givenUpAt);
        clock.advance(Duration.ofSeconds(5));

        // Records 3 to 6: u2's write (records 5 and 6) is refused again. Its first attempt files it.
        BatchResult next = engine.process(all.subList(3, 7));

        assertThat(next.failedSequenceNumber()).isEmpty();
        assertThat(next.writesDeadLettered()).isEqualTo(1);
        assertThat(next.failedWrites()).isZero();
        assertThat(deadLettered()).isEqualTo(2);
        assertThat(sink.letters()).hasSize(2);
        DeadLetter letter = sink.letters().get(1);
        assertThat(letter.derivedKey()).isEqualTo(U2_WRITTEN);
        assertThat(letter.sequenceNumber()).isEqualTo(all.get(5).sequenceNumber());
        assertThat(letter.reason()).contains("refused again", "filed at once", givenUpAt.toString(),
                "ValidationException", "2 records from " + all.get(5).paddedSequence());
        ShardCursors.Progress progress = cursors.progress(SHARD);
        assertThat(progress.pending()).isNull();
        assertThat(progress.acknowledged()).isEqualTo(all.get(6).paddedSequence());
        assertThat(progress.refused().since(U2_WRITTEN)).isEqualTo(clock.instant());
    }

    @Test
    void writeThatSucceeds_forgetsTheItem_soItsNextRefusalWaitsAgain() {
        store.refuseForGood(U2);
        giveUpU2();
        store.heal();

        assertThat(engine.process(all.subList(3, 6)).failedSequenceNumber()).isEmpty();
        assertThat(cursors.progress(SHARD).refused().isEmpty()).isTrue();

        store.refuseForGood(U2);
        BatchResult refused = engine.process(all.subList(6, 7));

        assertThat(refused.failedSequenceNumber()).contains(all.get(6).sequenceNumber());
        assertThat(refused.writesDeadLettered()).isZero();
        assertThat(deadLettered()).isEqualTo(1);
    }

    @Test
    void rememberedItem_afterAFailureThatMustWait_isLeftToTheRetryThatStartsThere() {
        store.refuseForGood(U2);
        giveUpU2();
        store.throttle(U1);

        // u1's write fails at record 3 (throttled), u2's at record 5: the batch fails at 3, and u2's write is not
        // filed here, or the retry from 3 would file it a second time.
        assertThat(engine.process(all.subList(3, 7)).failedSequenceNumber()).contains(all.get(3).sequenceNumber());
        assertThat(sink.letters()).hasSize(1);
        store.throttle(U1, write -> false);

        BatchResult retry = engine.process(all.subList(3, 7));

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(retry.writesDeadLettered()).isEqualTo(1);
        assertThat(sink.letters()).hasSize(2);
        assertThat(sink.letters().get(1).sequenceNumber()).isEqualTo(all.get(5).sequenceNumber());
    }

    @Test
    void memory_keepsTheMostRecentlyRefusedItems_andForgetsThoseWritten() {
        RefusedItems items = RefusedItems.NONE;
        Instant t = Instant.parse("2026-11-23T10:00:00.123456Z");
        for (int i = 0; i < RefusedItems.MAX + 5; i++) {
            items = items.after(List.of(Users.statsKey("u" + i)), List.of(), t.plusSeconds(i));
        }

        assertThat(items.byHash()).hasSize(RefusedItems.MAX);
        assertThat(items.contains(Users.statsKey("u4"))).isFalse();
        assertThat(items.contains(Users.statsKey("u5"))).isTrue();
        // Milliseconds, as the cursor stores them.
        assertThat(items.since(Users.statsKey("u5"))).isEqualTo(Instant.parse("2026-11-23T10:00:05.123Z"));
        assertThat(items.after(List.of(), List.of(Users.statsKey("u5")), t).contains(Users.statsKey("u5"))).isFalse();
        assertThat(RefusedItems.hash(U2)).hasSize(32).isEqualTo(RefusedItems.hash(Users.statsKey("u2")));
    }
}
