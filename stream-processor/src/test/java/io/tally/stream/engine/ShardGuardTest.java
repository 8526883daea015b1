package io.tally.stream.engine;

import static io.tally.stream.testing.TestDerivations.comparable;
import static io.tally.stream.testing.TestDerivations.partial;
import static io.tally.stream.testing.TestDerivations.recompute;
import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.TableSchema;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The shard cursor's guard in the engine: deliveries past a failure, two holders, events that never publish. */
class ShardGuardTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Engine> engines = new ArrayList<>();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final InMemoryDeadLetterSink sink = new InMemoryDeadLetterSink();
    private final InMemoryShardCursors cursors = new InMemoryShardCursors();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock(TestRecords.T0.plusSeconds(30));

    @AfterEach
    void closeEngines() {
        engines.forEach(Engine::close);
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

    private Engine engine(DerivedStore store, int eventAttempts) {
        return engine(store, eventAttempts, 5);
    }

    private Engine engine(DerivedStore store, int eventAttempts, int writeAttempts) {
        Engine engine = Engine.builder()
                .derivations(TestDerivations.blog())
                .store(store)
                .deadLetters(sink)
                .publisher(publisher)
                .cursors(cursors)
                .metrics(new StreamMetrics(registry))
                .clock(clock)
                .eventGiveUp(eventAttempts, Duration.ofMinutes(1))
                .writeGiveUp(writeAttempts, Duration.ofMinutes(1))
                .build();
        engines.add(engine);
        return engine;
    }

    private double guard(String reason) {
        return registry.counter(StreamMetrics.GUARD, "reason", reason).count();
    }

    @Test
    void deliveryPastTheFailurePoint_isRefusedWithoutWriting_untilTheFailedRecordIsApplied() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store, 5);
        store.throttle(Users.statsKey("u2"));

        BatchResult failed = engine.process(all.subList(0, 4));
        assertThat(failed.failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        store.heal();
        store.clearWrites();

        // A delivery that starts after the failed record (1): without the guard, u2's watermark would move past
        // record 1 and record 1 would be refused as applied when it comes back.
        BatchResult past = engine.process(all.subList(4, 7));

        assertThat(past.refusal()).hasValueSatisfying(reason -> assertThat(reason).contains("past the failure point"));
        assertThat(past.failedSequenceNumber()).contains(all.get(4).sequenceNumber());
        assertThat(store.writes()).isEmpty();
        assertThat(guard("past-failure")).isEqualTo(1);

        assertThat(engine.process(all.subList(1, 7)).failedSequenceNumber()).isEmpty();
        assertThat(cursors.pending(SHARD)).isNull();
        assertThat(comparable(behind.items())).isEqualTo(recompute(TestDerivations.blog(), records.table()));
    }

    @Test
    void retryFromBeforeTheFailurePoint_isAdmitted() {
        List<SourceRecord> all = blog().records();
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());
        Engine engine = engine(store, 5);
        store.throttle(Users.statsKey("u1"));
        assertThat(engine.process(all.subList(2, 5)).failedSequenceNumber()).contains(all.get(3).sequenceNumber());
        store.heal();

        BatchResult earlier = engine.process(all.subList(0, 7));

        assertThat(earlier.refusal()).isEmpty();
        assertThat(earlier.failedSequenceNumber()).isEmpty();
    }

    @Test
    void shardHeldByAnotherInvocation_isRefused_untilItsLeaseLapses() {
        List<SourceRecord> all = blog().records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store, 5);
        // An invocation that claimed the shard and died before releasing it.
        cursors.claim(SHARD, all.get(0).paddedSequence(), new ShardCursors.Lease("dead-invocation",
                clock.instant().plusSeconds(60)), clock.instant());

        BatchResult held = engine.process(all, new ShardCursors.Lease("next", clock.instant().plusSeconds(60)));

        assertThat(held.refusal()).hasValueSatisfying(reason -> assertThat(reason).contains("dead-invocation"));
        assertThat(store.items()).isEmpty();
        assertThat(guard("held")).isEqualTo(1);

        clock.advance(Duration.ofSeconds(61));
        BatchResult after = engine.process(all, new ShardCursors.Lease("later", clock.instant().plusSeconds(60)));
        assertThat(after.refusal()).isEmpty();
        assertThat(after.failedSequenceNumber()).isEmpty();
    }

    @Test
    void crashedInvocation_leavesItsFirstRecordPending_soADeliveryPastItIsRefused() {
        List<SourceRecord> all = blog().records();
        Engine engine = engine(new InMemoryDerivedStore(), 5);
        cursors.claim(SHARD, all.get(2).paddedSequence(), new ShardCursors.Lease("crashed", clock.instant()),
                clock.instant());
        clock.advance(Duration.ofSeconds(1));

        assertThat(engine.process(all.subList(4, 7)).refusal()).isPresent();
        assertThat(engine.process(all.subList(2, 7)).refusal()).isEmpty();
    }

    @Test
    void batchOfEchoesOnly_claimsNothing() {
        TestRecords echoes = new TestRecords(SHARD);
        Map<String, AttributeValue> stats = new HashMap<>(Users.statsKey("u1").toAttributeMap());
        stats.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(Users.USER_STATS.entityType().attributeValue()));
        echoes.put(stats);
        Engine engine = engine(new InMemoryDerivedStore(), 5);
        // A pending failure that would refuse any claim after record 0.
        cursors.claim(SHARD, "0".repeat(40), new ShardCursors.Lease("other", clock.instant()), clock.instant());
        clock.advance(Duration.ofSeconds(1));

        BatchResult result = engine.process(echoes.records());

        assertThat(result.refusal()).isEmpty();
        assertThat(result.skipped()).isEqualTo(1);
    }

    @Test
    void eventsThatNeverPublish_areDeadLetteredAfterTheAttemptsAndPeriod_andTheShardMovesOn() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store, 3);
        String refused = "ev-" + all.get(4).sequenceNumber() + ":";
        publisher.refuse(event -> event.id().startsWith(refused));

        assertThat(engine.process(all).failedSequenceNumber()).contains(all.get(4).sequenceNumber());
        assertThat(engine.process(all.subList(4, 7)).failedSequenceNumber()).contains(all.get(4).sequenceNumber());
        // The third attempt comes too early: a period of one minute must also have passed since the first.
        assertThat(engine.process(all.subList(4, 7)).failedSequenceNumber()).contains(all.get(4).sequenceNumber());
        assertThat(sink.letters()).isEmpty();
        clock.advance(Duration.ofMinutes(1));

        BatchResult givenUp = engine.process(all.subList(4, 7));

        assertThat(givenUp.failedSequenceNumber()).isEmpty();
        assertThat(givenUp.eventsDeadLettered()).isPositive();
        assertThat(registry.counter(StreamMetrics.EVENTS_DEAD_LETTERED).count()).isEqualTo(givenUp.eventsDeadLettered());
        DeadLetter letter = sink.letters().get(0);
        assertThat(letter.isEvents()).isTrue();
        assertThat(letter.sequenceNumber()).isEqualTo(all.get(4).sequenceNumber());
        assertThat(letter.events()).contains(refused).contains("PostStatusChanged");
        assertThat(letter.reason()).contains("after 4 attempts");
        // The record's derived writes are kept, and the events of the records after it were published.
        assertThat(comparable(store.items())).isEqualTo(recompute(TestDerivations.blog(), records.table()));
        assertThat(publisher.publishedIds()).anyMatch(id -> id.startsWith("ev-" + all.get(6).sequenceNumber() + ":"));
        assertThat(publisher.publishedIds()).noneMatch(id -> id.startsWith(refused));
        assertThat(cursors.pending(SHARD)).isNull();
    }

    @Test
    void eventsRefusedForGood_areDeadLetteredAtOnce_everyRecordOfTheBatchWhole_andTheShardMovesOn() throws Exception {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store, 5);
        // As EventBridge answers a role without events:PutEvents, or a deleted bus: every entry, every time.
        publisher.refuseForGood(event -> true);

        BatchResult result = engine.process(all);

        // No retry, no waiting for the give-up rule: the shard moved past every record in this one batch.
        assertThat(result.failedSequenceNumber()).isEmpty();
        assertThat(cursors.pending(SHARD)).isNull();
        assertThat(result.eventsFailed()).isZero();
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber)
                .containsExactlyElementsOf(all.stream().map(SourceRecord::sequenceNumber).toList());
        int filed = 0;
        for (DeadLetter letter : sink.letters()) {
            assertThat(letter.isEvents()).isTrue();
            assertThat(letter.reason()).contains("refused for good").contains(RecordingPublisher.REFUSED_FOR_GOOD);
            for (JsonNode event : JSON.readTree(letter.events())) {
                filed++;
                assertThat(event.path("id").asText()).startsWith("ev-" + letter.sequenceNumber() + ":");
                assertThat(event.path("source").asText()).isEqualTo(RecordingPublisher.SOURCE);
                assertThat(event.path("detailType").asText()).isNotBlank();
                assertThat(event.path("detail").path("eventId").asText()).isEqualTo(event.path("id").asText());
                assertThat(event.path("errorCode").asText()).isEqualTo(RecordingPublisher.REFUSED_FOR_GOOD);
            }
        }
        assertThat(filed).isEqualTo(result.eventsDeadLettered()).isGreaterThan(all.size());
        assertThat(registry.counter(StreamMetrics.EVENTS_DEAD_LETTERED).count()).isEqualTo(filed);
        assertThat(comparable(store.items())).isEqualTo(recompute(TestDerivations.blog(), records.table()));

        // A redelivery of the acknowledged batch announces and files nothing again.
        BatchResult again = engine.process(all);
        assertThat(again.eventsDeadLettered()).isZero();
        assertThat(sink.letters()).hasSize(all.size());
    }

    @Test
    void eventsRefusedForGood_afterARetryableFailure_waitForTheRetryThatStartsThere() {
        List<SourceRecord> all = blog().records();
        Engine engine = engine(new InMemoryDerivedStore(), 5);
        String first = "ev-" + all.get(1).sequenceNumber() + ":";
        String throttled = "ev-" + all.get(3).sequenceNumber() + ":";
        String later = "ev-" + all.get(5).sequenceNumber() + ":";
        publisher.refuseForGood(event -> event.id().startsWith(first) || event.id().startsWith(later));
        publisher.refuse(event -> event.id().startsWith(throttled));

        BatchResult result = engine.process(all);

        // Record 1's events are filed; record 3 fails the batch there, and record 5 is left to that retry.
        assertThat(result.failedSequenceNumber()).contains(all.get(3).sequenceNumber());
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber).containsExactly(all.get(1).sequenceNumber());
        assertThat(cursors.pending(SHARD).sequence()).isEqualTo(all.get(3).paddedSequence());

        publisher.refuse(event -> false);
        BatchResult retry = engine.process(all.subList(3, 7));

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber)
                .containsExactly(all.get(1).sequenceNumber(), all.get(5).sequenceNumber());
        assertThat(publisher.publishedIds()).anyMatch(id -> id.startsWith(throttled))
                .noneMatch(id -> id.startsWith(first) || id.startsWith(later));
        assertThat(cursors.pending(SHARD)).isNull();
    }

    @Test
    void eventsOfTwoRecordsFailing_onceTheFirstIsGivenUpOn_theOutageFilesTheNextAtOnce_untilAPublishSucceeds() {
        TestRecords records = blog();
        records.put(post("u1", "p8", "Eight", PostStatus.CREATED).toItem());
        records.put(post("u1", "p9", "Nine", PostStatus.CREATED).toItem());
        List<SourceRecord> all = records.records();
        Engine engine = engine(new InMemoryDerivedStore(), 1);
        clock.advance(Duration.ofMinutes(1));
        String first = "ev-" + all.get(4).sequenceNumber() + ":";
        String second = "ev-" + all.get(6).sequenceNumber() + ":";
        publisher.refuse(event -> event.id().startsWith(first) || event.id().startsWith(second));

        BatchResult result = engine.process(all, new ShardCursors.Lease("a", clock.instant().plusSeconds(60)));

        // One attempt is enough, but the period counts from the first failure at a record: record 4's events are
        // given up on only once a minute has passed.
        assertThat(result.failedSequenceNumber()).contains(all.get(4).sequenceNumber());
        clock.advance(Duration.ofMinutes(1));
        BatchResult next = engine.process(all.subList(4, 7));
        // The bus has failed for the whole give-up period: record 6's failure is the same outage, filed at once, and
        // the shard moves on at its own pace instead of one record per period.
        assertThat(next.failedSequenceNumber()).isEmpty();
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber)
                .containsExactly(all.get(4).sequenceNumber(), all.get(6).sequenceNumber());
        assertThat(sink.letters().get(1).reason()).contains("given up at once");
        assertThat(cursors.pending(SHARD)).isNull();
        assertThat(publisher.publishedIds()).noneMatch(id -> id.startsWith(second) || id.startsWith(first));

        // The bus takes events again, but throttles some under load: an event published ends the outage, and the
        // batch's throttled record is retried as usual, not filed.
        String third = "ev-" + all.get(8).sequenceNumber() + ":";
        publisher.refuse(event -> event.id().startsWith(third));
        assertThat(engine.process(all.subList(7, 9)).failedSequenceNumber()).contains(all.get(8).sequenceNumber());
        assertThat(sink.letters()).hasSize(2);
        assertThat(publisher.publishedIds()).anyMatch(id -> id.startsWith("ev-" + all.get(7).sequenceNumber() + ":"));
    }

    /**
     * With every event throttled, {@code environment} fails records 0 to 2 at record 0, then, a give-up period later,
     * gives record 0 up and files records 1 and 2 at once, in the outage that begins.
     *
     * @return when the outage began
     */
    private Instant outageGivenUpOnIn(Engine environment, List<SourceRecord> all) {
        publisher.refuse(event -> true);
        assertThat(environment.process(all.subList(0, 3)).failedSequenceNumber()).contains(all.get(0).sequenceNumber());
        clock.advance(Duration.ofMinutes(1));
        BatchResult givenUp = environment.process(all.subList(0, 3));
        assertThat(givenUp.failedSequenceNumber()).isEmpty();
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber).containsExactly(all.get(0).sequenceNumber(),
                all.get(1).sequenceNumber(), all.get(2).sequenceNumber());
        assertThat(cursors.progress(SHARD).outage()).isEqualTo(ShardCursors.Outage.begin(clock.instant()));
        return clock.instant();
    }

    @Test
    void outageGivenUpOnInOneExecutionEnvironment_filesTheFailingEventsOfABatchInAnotherAtOnce() {
        List<SourceRecord> all = blog().records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        // Two execution environments Lambda runs the shard's batches in: engines of their own, one table of cursors.
        Engine first = engine(store, 2);
        Engine second = engine(store, 2);
        Instant since = outageGivenUpOnIn(first, all);
        clock.advance(Duration.ofSeconds(10));

        // The next batch runs in the other environment, whose publisher never failed before: the outage is in the
        // shard's cursor, so its first attempt files the failing events instead of waiting a give-up period again.
        BatchResult next = second.process(all.subList(3, 7));

        assertThat(next.failedSequenceNumber()).isEmpty();
        assertThat(next.eventsFailed()).isZero();
        assertThat(next.eventsDeadLettered()).isPositive();
        assertThat(sink.letters()).extracting(DeadLetter::sequenceNumber)
                .containsExactlyElementsOf(all.stream().map(SourceRecord::sequenceNumber).toList());
        assertThat(sink.letters().subList(3, 7)).allSatisfy(letter -> assertThat(letter.reason())
                .contains("given up at once", "gave up on at " + since));
        assertThat(cursors.pending(SHARD)).isNull();
        assertThat(cursors.progress(SHARD).outage()).isEqualTo(new ShardCursors.Outage(since, clock.instant()));
        assertThat(publisher.publishedIds()).isEmpty();
        assertThat(comparable(store.items())).isEqualTo(recompute(TestDerivations.blog(), blog().table()));
    }

    @Test
    void outageEnds_forEveryExecutionEnvironment_onceTheBusTakesOneOfTheShardsEvents() {
        TestRecords records = blog();
        records.put(post("u1", "p8", "Eight", PostStatus.CREATED).toItem());
        records.put(post("u1", "p9", "Nine", PostStatus.CREATED).toItem());
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine first = engine(store, 2);
        Engine second = engine(store, 2);
        outageGivenUpOnIn(first, all);

        // The bus takes events again, in the other environment: the outage is over, in the shard's cursor.
        publisher.refuse(event -> false);
        assertThat(second.process(all.subList(3, 5)).failedSequenceNumber()).isEmpty();
        assertThat(cursors.progress(SHARD).outage()).isNull();

        // Throttled again within the give-up period: the environment that gave up before retries as usual.
        publisher.refuse(event -> true);
        BatchResult throttled = first.process(all.subList(5, 9));

        assertThat(throttled.failedSequenceNumber()).contains(all.get(5).sequenceNumber());
        assertThat(throttled.eventsDeadLettered()).isZero();
        assertThat(sink.letters()).hasSize(3);
        assertThat(cursors.pending(SHARD).sequence()).isEqualTo(all.get(5).paddedSequence());
        assertThat(cursors.progress(SHARD).outage()).isNull();
    }

    @Test
    void outageLapses_forEveryExecutionEnvironment_aGiveUpPeriodAfterItLastFiled() {
        List<SourceRecord> all = blog().records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine first = engine(store, 2);
        Engine second = engine(store, 2);
        outageGivenUpOnIn(first, all);
        clock.advance(Duration.ofMinutes(1));

        // Nothing filed for a give-up period: the next failure waits the attempts and the period again.
        BatchResult next = second.process(all.subList(3, 7));

        assertThat(next.failedSequenceNumber()).contains(all.get(3).sequenceNumber());
        assertThat(next.eventsDeadLettered()).isZero();
        assertThat(sink.letters()).hasSize(3);
        assertThat(cursors.pending(SHARD).attempts()).isEqualTo(1);
        assertThat(cursors.progress(SHARD).outage()).isNull();
    }

    @Test
    void failureInARedeliveredRange_leavesTheFirstUnappliedRecordPending_soALaterBatchCannotPassIt() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store, 5);
        engine.process(all.subList(0, 4));
        store.throttle(Users.statsKey("u2"));

        // A redelivery from record 2: u2's records 2 and 3 are acknowledged, 5 and 6 are new and fail.
        BatchResult failed = engine.process(all.subList(2, 7));
        store.heal();

        assertThat(failed.failedSequenceNumber()).contains(all.get(5).sequenceNumber());
        assertThat(cursors.pending(SHARD).sequence()).isEqualTo(all.get(5).paddedSequence());
        // A delivery of record 6 alone would move u2's watermark past 5, and 5 would then be refused as done.
        assertThat(engine.process(all.subList(6, 7)).refusal()).isPresent();
        assertThat(engine.process(all.subList(5, 7)).failedSequenceNumber()).isEmpty();
        assertThat(comparable(behind.items())).isEqualTo(recompute(TestDerivations.blog(), records.table()));
    }

    @Test
    void derivedWriteRefusedForGood_isDeadLetteredAfterTheAttemptsAndPeriod_andTheShardMovesOn() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store, 5, 3);
        Key u2 = Users.statsKey("u2");
        store.refuseForGood(u2);

        // u2's stats are first touched by record 1.
        assertThat(engine.process(all).failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        assertThat(engine.process(all.subList(1, 7)).failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        // The third attempt comes too early: a period of one minute must also have passed since the first.
        assertThat(engine.process(all.subList(1, 7)).failedSequenceNumber()).contains(all.get(1).sequenceNumber());
        assertThat(sink.letters()).isEmpty();
        assertThat(publisher.publishedIds()).noneMatch(id -> id.startsWith("ev-" + all.get(1).sequenceNumber() + ":"));
        clock.advance(Duration.ofMinutes(1));

        BatchResult givenUp = engine.process(all.subList(1, 7));

        assertThat(givenUp.failedSequenceNumber()).isEmpty();
        assertThat(givenUp.writesDeadLettered()).isEqualTo(1);
        assertThat(registry.counter(StreamMetrics.WRITES_DEAD_LETTERED).count()).isEqualTo(1);
        assertThat(sink.letters()).singleElement().satisfies(letter -> {
            assertThat(letter.isDerivedWrite()).isTrue();
            assertThat(letter.derivedKey()).isEqualTo(partial(u2, SHARD));
            assertThat(letter.sequenceNumber()).isEqualTo(all.get(1).sequenceNumber());
            assertThat(letter.reason()).contains("after 4 attempts", "ValidationException", "verify --repair",
                    "4 records from " + all.get(1).paddedSequence() + " to " + all.get(6).paddedSequence());
        });
        // Every other item holds every record; the records' events, those after record 1 included, went out.
        Map<Key, Map<String, AttributeValue>> expected = new HashMap<>(recompute(TestDerivations.blog(),
                records.table()));
        expected.remove(u2);
        assertThat(comparable(behind.items())).isEqualTo(expected);
        assertThat(publisher.publishedIds()).anyMatch(id -> id.startsWith("ev-" + all.get(6).sequenceNumber() + ":"));
        assertThat(cursors.pending(SHARD)).isNull();
    }

    @Test
    void throttling_isNeverGivenUpOn() {
        List<SourceRecord> all = blog().records();
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());
        Engine engine = engine(store, 1, 1);
        store.throttle(Users.statsKey("u2"));

        for (int attempt = 0; attempt < 5; attempt++) {
            clock.advance(Duration.ofMinutes(10));
            assertThat(engine.process(all.subList(1, 7)).failedSequenceNumber())
                    .contains(all.get(1).sequenceNumber());
        }

        assertThat(sink.letters()).isEmpty();
        assertThat(cursors.pending(SHARD).attempts()).isEqualTo(5);
    }

    @Test
    void releaseThatCommittedButWasNotAnswered_isRecognisedByALaterAttempt_soTheBatchIsNotReportedFailed() {
        List<SourceRecord> all = blog().records();
        // The first release commits and its answer is lost; the next four attempts fail before reaching the table.
        UnansweredReleases unanswered = new UnansweredReleases(cursors, 5);
        Engine engine = Engine.builder().derivations(TestDerivations.blog()).store(new InMemoryDerivedStore())
                .deadLetters(sink).publisher(publisher).cursors(unanswered).clock(clock).build();
        engines.add(engine);

        BatchResult result = engine.process(all.subList(0, 4));

        // Reported failed, the mapping would retry from record 0 while the cursor says records 0-3 are done and
        // nothing is pending: a delivery that skipped records 4 and 5 would then be admitted.
        assertThat(result.failedSequenceNumber()).isEmpty();
        assertThat(unanswered.attempts).isEqualTo(6);
        assertThat(engine.process(all.subList(4, 7)).failedSequenceNumber()).isEmpty();
    }

    @Test
    void releaseNeverAnswered_reportsTheBatchFailedFromItsFirstRecord() {
        List<SourceRecord> all = blog().records();
        UnansweredReleases unanswered = new UnansweredReleases(cursors, Integer.MAX_VALUE);
        Engine engine = Engine.builder().derivations(TestDerivations.blog()).store(new InMemoryDerivedStore())
                .deadLetters(sink).publisher(publisher).cursors(unanswered).clock(clock).build();
        engines.add(engine);

        BatchResult result = engine.process(all.subList(0, 4));

        assertThat(result.failedSequenceNumber()).contains(all.get(0).sequenceNumber());
        assertThat(unanswered.attempts).isEqualTo(ShardGuard.RELEASE_ATTEMPTS);
    }

    /** Cursors whose releases throw for the first {@code unanswered} attempts; the first of them commits. */
    private static final class UnansweredReleases implements ShardCursors {
        private final ShardCursors cursors;
        private final int unanswered;
        private int attempts;

        UnansweredReleases(ShardCursors cursors, int unanswered) {
            this.cursors = cursors;
            this.unanswered = unanswered;
        }

        @Override
        public String lineage(String shardId, ShardParents parents) {
            return cursors.lineage(shardId, parents);
        }

        @Override
        public Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain,
                           Instant now) {
            return cursors.claim(shardId, firstSequence, lastSequence, lease, chain, now);
        }

        @Override
        public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
            attempts++;
            if (attempts == 1) {
                cursors.release(shardId, lease, progress, now);
            }
            if (attempts <= unanswered) {
                throw new IllegalStateException("no answer from the table (attempt " + attempts + ")");
            }
            return cursors.release(shardId, lease, progress, now);
        }
    }
}
