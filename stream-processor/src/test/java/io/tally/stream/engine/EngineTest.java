package io.tally.stream.engine;

import static io.tally.stream.testing.TestDerivations.comparable;
import static io.tally.stream.testing.TestDerivations.partial;
import static io.tally.stream.testing.TestDerivations.recompute;
import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.User;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostRef;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueItem;
import io.tally.stream.testing.FlakyDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class EngineTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    private final List<Engine> engines = new ArrayList<>();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final InMemoryDeadLetterSink sink = new InMemoryDeadLetterSink();

    @AfterEach
    void closeEngines() {
        engines.forEach(Engine::close);
    }

    // ---------------------------------------------------------------------------------------------- scenario

    /** A blog: three users, posts and comments, an edit, a soft delete, a removed comment. */
    private static TestRecords blog() {
        TestRecords r = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "Hello", PostStatus.CREATED);
        Post p2 = post("u1", "p2", "Second", PostStatus.CREATED);
        Post p3 = post("u2", "p3", "Other", PostStatus.CREATED);
        Comment c1 = comment("c1", p1, "u2");
        r.put(p1.toItem());                                                   // 0: u1 posts, projection p1
        r.put(p2.toItem());                                                   // 1: u1 posts, projection p2
        r.put(p3.toItem());                                                   // 2: u2 posts, projection p3
        r.put(c1.toItem());                                                   // 3: u2 comments, p1 comments
        r.put(comment("c2", p3, "u1").toItem());                              // 4: u1 comments, p3 comments
        r.put(comment("c3", p1, "u3").toItem());                              // 5: u3 comments, p1 comments
        r.put(post("u1", "p1", "Hello again", PostStatus.UPDATED).toItem());  // 6: projection p1 only
        r.put(post("u1", "p2", "Second", PostStatus.DELETED).toItem());       // 7: u1 posts -1, projection p2
        r.delete(c1.toItem());                                                // 8: u2 comments -1, p1 comments -1
        r.put(post("u2", "p4", "Fourth", PostStatus.CREATED).toItem());       // 9: u2 posts, projection p4
        return r;
    }

    private Engine engine(DerivedStore store) {
        return engine(store, sink, TestDerivations.blog(), new StreamMetrics(new SimpleMeterRegistry()));
    }

    private Engine engine(DerivedStore store, DeadLetterSink deadLetters, Derivations derivations,
                          StreamMetrics metrics) {
        Engine engine = Engine.builder()
                .derivations(derivations)
                .store(store)
                .deadLetters(deadLetters)
                .publisher(publisher)
                .metrics(metrics)
                .clock(Clock.fixed(TestRecords.T0.plusSeconds(30), ZoneOffset.UTC))
                .writeConcurrency(4)
                .build();
        engines.add(engine);
        return engine;
    }

    private static Map<Key, Map<String, AttributeValue>> expected(TestRecords records) {
        return recompute(TestDerivations.blog(), records.table());
    }

    private static long number(InMemoryDerivedStore store, Key key, String attribute) {
        AttributeValue value = store.whole(key).orElseThrow().get(attribute);
        return value == null ? 0 : Long.parseLong(value.n());
    }

    private static String padded(SourceRecord record) {
        return record.paddedSequence();
    }

    // ------------------------------------------------------------------------------------------------- tests

    @Test
    void oneBatch_blogScenario_derivedItemsEqualRecomputation() {
        TestRecords records = blog();
        InMemoryDerivedStore store = new InMemoryDerivedStore();

        BatchResult result = engine(store).process(records.records());

        assertThat(result.failedSequenceNumber()).isEmpty();
        assertThat(comparable(store.items())).isEqualTo(expected(records));
        assertThat(number(store, Users.statsKey("u1"), "posts")).isEqualTo(1);
        assertThat(number(store, Users.statsKey("u2"), "comments")).isZero();
        assertThat(number(store, BlogKeys.postProjection("p1"), "comments")).isEqualTo(1);
        assertThat(store.item(BlogKeys.postProjection("p1")).orElseThrow())
                .containsEntry("title", AttributeValue.fromS("Hello again"))
                .containsEntry("status", AttributeValue.fromS("updated"))
                .containsEntry(TableSchema.ENTITY_TYPE, AttributeValue.fromS("PostProjection"));
    }

    @Test
    void globalTotals_manyShards_eachShardWritesItsOwnPartialInItsSlot_oneWatermarkEach_andTheyAllSumToTheTotal() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store, sink, derivations, new StreamMetrics(new SimpleMeterRegistry()));
        Map<Integer, Set<String>> shardsOfSlot = new HashMap<>();
        for (int s = 0; s < 12; s++) {
            String shard = "shardId-0000000171456480000" + s + "-child" + s;
            TestRecords records = new TestRecords(shard);
            for (int u = 0; u < 5; u++) {
                records.put(new User("u" + s + "-" + u, "n", "e@x.io", TestRecords.T0, TestRecords.T0, 1).toItem());
            }
            assertThat(engine.process(records.records()).failedSequenceNumber()).isEmpty();
            shardsOfSlot.computeIfAbsent(Shards.of(shard, 4), k -> new HashSet<>()).add(shard);
        }

        long users = 0;
        for (int slot = 0; slot < 4; slot++) {
            assertThat(store.item(Users.globalStatsKey(slot))).as("no shard writes the base item").isEmpty();
            for (String shard : shardsOfSlot.getOrDefault(slot, Set.of())) {
                Map<String, AttributeValue> partial = store.item(partial(Users.globalStatsKey(slot), shard)).orElseThrow();
                assertThat(partial.keySet().stream().filter(Watermarks::isWatermark).toList())
                        .containsExactly(Watermarks.attributeName(shard));
            }
            users += store.whole(Users.globalStatsKey(slot)).map(item -> Long.parseLong(
                    item.get(Users.GLOBAL_USERS.attribute()).n())).orElse(0L);
        }
        assertThat(users).isEqualTo(60);
        assertThat(store.items().keySet().stream().filter(key -> key.pk().startsWith("GLOBAL#"))).hasSize(12);
        assertThat(shardsOfSlot).hasSizeGreaterThan(1);
    }

    @Test
    void everyDerivedItem_afterBatch_carriesTheShardWatermarkOfItsLastRecord() {
        TestRecords records = blog();
        InMemoryDerivedStore store = new InMemoryDerivedStore();

        engine(store).process(records.records());

        String watermark = Watermarks.attributeName(SHARD);
        // p1's projection was last touched by record 8 (comment c1 removed), u2's stats by record 9.
        assertThat(store.item(BlogKeys.postProjection("p1")).orElseThrow().get(watermark).s())
                .isEqualTo(padded(records.records().get(8)));
        assertThat(store.item(partial(Users.statsKey("u2"), SHARD)).orElseThrow().get(watermark).s())
                .isEqualTo(padded(records.records().get(9)));
    }

    @Test
    void manyRecords_onFewDerivedItems_oneWritePerItem() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        Post p2 = post("u2", "p2", "Two", PostStatus.CREATED);
        for (int i = 0; i < 30; i++) {
            records.put(comment("c" + i, i % 2 == 0 ? p1 : p2, "a" + (i % 3)).toItem());
        }
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());

        BatchResult result = engine(store).process(records.records());

        // 3 authors' stats and 2 projections: 5 writes for 30 records.
        assertThat(store.writes()).hasSize(5);
        assertThat(result.derivedWrites()).isEqualTo(5);
        assertThat(store.writes()).extracting(DerivedWrite::key).doesNotHaveDuplicates();
        DerivedWrite projection = store.writes().stream()
                .filter(w -> w.key().equals(BlogKeys.postProjection("p1"))).findFirst().orElseThrow();
        assertThat(projection.counterAdds()).containsExactly(Map.entry("comments", 15L));
        assertThat(projection.firstSequence()).isEqualTo(padded(records.records().get(0)));
        assertThat(projection.lastSequence()).isEqualTo(padded(records.records().get(28)));
    }

    @Test
    void documentRestatedUnchanged_isNotWritten_andTheItemStillEqualsTheRecomputation() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        records.put(p1.toItem());
        // The body changed and the version moved, but nothing the projection holds: it restates the document.
        Post edited = new Post("p1", "u1", "One", "another body", PostStatus.CREATED, p1.createdAt(), p1.updatedAt(), 2);
        records.put(edited.toItem());
        InMemoryDerivedStore items = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(items);
        Engine engine = engine(store);

        engine.process(records.records().subList(0, 1));
        BatchResult result = engine.process(records.records().subList(1, 2));

        // The second batch writes nothing: no counter moved, the document is the one the projection holds.
        assertThat(result.derivedWrites()).isZero();
        assertThat(store.writes()).filteredOn(w -> w.key().equals(BlogKeys.postProjection("p1"))).hasSize(1);
        assertThat(comparable(items.items())).isEqualTo(expected(records));
    }

    @Test
    void duplicateBatch_processedAgain_changesNothingAndPublishesNothingAgain() {
        TestRecords records = blog();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store);
        engine.process(records.records());
        Map<Key, Map<String, AttributeValue>> once = store.items();
        assertThat(publisher.publishedIds()).isNotEmpty();
        publisher.clear();

        BatchResult again = engine.process(records.records());

        assertThat(again.failedSequenceNumber()).isEmpty();
        assertThat(store.items()).isEqualTo(once);
        assertThat(publisher.publishedIds()).as("the shard's cursor acknowledges every record").isEmpty();
    }

    @Test
    void retryFromBeforeTheFailurePoint_publishesOnlyTheEventsOfTheFailedRecordAndAfter() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        Engine engine = engine(new InMemoryDerivedStore());
        String refusedPrefix = "ev-" + all.get(5).sequenceNumber() + ":";
        publisher.refuse(event -> event.id().startsWith(refusedPrefix));
        assertThat(engine.process(all).failedSequenceNumber()).contains(all.get(5).sequenceNumber());
        assertThat(publisher.publishedIds()).anyMatch(id -> sequenceOf(id) < Long.parseLong(all.get(5).sequenceNumber()));
        publisher.clear();
        publisher.refuse(event -> false);

        // A sloppier mapping restarts the shard from its first record, before the failure point.
        BatchResult retry = engine.process(all);

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(publisher.publishedIds()).as("none of a record before the failure point")
                .anyMatch(id -> id.startsWith(refusedPrefix))
                .allMatch(id -> sequenceOf(id) >= Long.parseLong(all.get(5).sequenceNumber()));
    }

    /** The sequence number of the record an event id names ({@code ev-<sequence>:...} in these records). */
    private static long sequenceOf(String eventId) {
        return Long.parseLong(eventId.substring("ev-".length(), eventId.indexOf(':')));
    }

    @Test
    void retry_fromAnyRecord_neverCountsTwice() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        for (int from = 0; from < all.size(); from++) {
            InMemoryDerivedStore store = new InMemoryDerivedStore();
            Engine engine = engine(store);
            engine.process(all);

            engine.process(all.subList(from, all.size()));

            assertThat(comparable(store.items())).as("retry from record %d", from).isEqualTo(expected(records));
        }
    }

    @Test
    void otherBatchBoundaries_overlappingAttempts_converge() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        // A first attempt that got through records [0, end), then a retry from any earlier record to the end: what
        // bisecting, a report of an earlier failure or a crash after some writes leave behind.
        for (int end = 1; end <= all.size(); end++) {
            for (int from = 0; from <= end; from++) {
                InMemoryDerivedStore store = new InMemoryDerivedStore();
                Engine engine = engine(store);
                engine.process(all.subList(0, end));

                BatchResult retry = engine.process(all.subList(from, all.size()));

                assertThat(retry.failedSequenceNumber()).isEmpty();
                assertThat(comparable(store.items())).as("first [0,%d), then [%d,%d)", end, from, all.size())
                        .isEqualTo(expected(records));
            }
        }
    }

    @Test
    void partiallyAppliedBatch_watermarkBetweenFirstAndLast_appliesOnlyTheRest() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);
        engine.process(all.subList(0, 4));
        store.clearWrites();

        engine.process(all);

        // u1's stats hold records 0 and 1; the batch also has 4 and 7 for them: refused, then the rest written
        // on the condition that the watermark is still record 1.
        List<DerivedWrite> u1 = store.writes().stream()
                .filter(w -> w.key().equals(partial(Users.statsKey("u1"), SHARD))).toList();
        assertThat(u1).hasSize(2);
        assertThat(u1.get(0).expectedWatermark()).isNull();
        assertThat(u1.get(0).firstSequence()).isEqualTo(padded(all.get(0)));
        assertThat(u1.get(1).expectedWatermark()).isEqualTo(padded(all.get(1)));
        assertThat(u1.get(1).firstSequence()).isEqualTo(padded(all.get(4)));
        assertThat(u1.get(1).counterAdds()).containsOnly(Map.entry("comments", 1L), Map.entry("posts", -1L));
        assertThat(comparable(behind.items())).isEqualTo(expected(records));
    }

    @Test
    void cancellingContributions_afterPartialApply_stillApplyTheRest() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        Comment c1 = comment("c1", p1, "u2");
        records.put(c1.toItem());
        records.delete(c1.toItem());
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store);
        engine.process(all.subList(0, 1));
        assertThat(number(store, Users.statsKey("u2"), "comments")).isEqualTo(1);

        // The retry's contributions cancel out, but the item holds the first one already.
        engine.process(all);

        assertThat(number(store, Users.statsKey("u2"), "comments")).isZero();
        assertThat(number(store, BlogKeys.postProjection("p1"), "comments")).isZero();
    }

    @Test
    void storeFailure_onOneItem_reportsItsLowestUnappliedRecordAndPublishesOnlyEventsBefore() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        store.throttle(Users.statsKey("u2"));
        Engine engine = engine(store);

        BatchResult result = engine.process(all);

        // u2's stats are first touched by record 2.
        assertThat(result.failedSequenceNumber()).contains(all.get(2).sequenceNumber());
        assertThat(result.failedWrites()).isEqualTo(1);
        assertThat(publisher.published()).extracting(DomainEvent::id)
                .allMatch(id -> id.startsWith("ev-" + all.get(0).sequenceNumber() + ":")
                        || id.startsWith("ev-" + all.get(1).sequenceNumber() + ":"))
                .isNotEmpty();
        // Other items took the whole batch, records after the failure included.
        assertThat(number(behind, Users.statsKey("u1"), "posts")).isEqualTo(1);
        assertThat(behind.item(Users.statsKey("u2"))).isEmpty();

        store.heal();
        BatchResult retry = engine.process(all.subList(2, all.size()));

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(comparable(behind.items())).isEqualTo(expected(records));
        assertThat(publisher.publishedIds()).doesNotHaveDuplicates();
    }

    @Test
    void storeFailure_afterRefusal_reportsTheFirstRecordAfterTheKnownWatermark() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);
        engine.process(all.subList(0, 4));
        // The first write is refused (the item holds records 2 and 3), the recomputed one is throttled.
        store.throttle(Users.statsKey("u2"), write -> write.expectedWatermark() != null);

        BatchResult result = engine.process(all);

        // u2's next record after its watermark is 8.
        assertThat(result.failedSequenceNumber()).contains(all.get(8).sequenceNumber());

        store.heal();
        engine.process(all.subList(8, all.size()));
        assertThat(comparable(behind.items())).isEqualTo(expected(records));
    }

    @Test
    void storeFailure_beforeWatermarkKnown_reportsTheItemsFirstRecordOfTheBatch() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);
        engine.process(all.subList(0, 2));
        store.throttle(Users.statsKey("u2"));

        BatchResult result = engine.process(all);

        // Throttled before the condition said how far the item is: its records from 2 on are retried, and the
        // watermark skips those it already holds.
        assertThat(result.failedSequenceNumber()).contains(all.get(2).sequenceNumber());
        store.heal();
        engine.process(all.subList(2, all.size()));
        assertThat(comparable(behind.items())).isEqualTo(expected(records));
    }

    @Test
    void storeFailure_inARedeliveredRange_reportsTheItemsFirstRecordAfterTheAcknowledgedOne() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);
        engine.process(all.subList(0, 4));
        store.throttle(Users.statsKey("u2"));

        BatchResult result = engine.process(all);

        // Records 0 to 3 are acknowledged, so u2's records 2 and 3 are in its item: the first that may be missing
        // is 8. Reporting 2 would read as a failure in the old range, nothing new pending.
        assertThat(result.failedSequenceNumber()).contains(all.get(8).sequenceNumber());
        store.heal();
        engine.process(all.subList(8, all.size()));
        assertThat(comparable(behind.items())).isEqualTo(expected(records));
    }

    @Test
    void eventPublishing_failsForOneRecord_reportsThatRecordAndRetryRepublishesWithSameIds() {
        TestRecords records = blog();
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store);
        String refusedPrefix = "ev-" + all.get(5).sequenceNumber() + ":";
        publisher.refuse(event -> event.id().startsWith(refusedPrefix));

        BatchResult result = engine.process(all);

        assertThat(result.failedSequenceNumber()).contains(all.get(5).sequenceNumber());
        assertThat(result.eventsFailed()).isPositive();
        assertThat(comparable(store.items())).isEqualTo(expected(records));

        publisher.refuse(event -> false);
        BatchResult retry = engine.process(all.subList(5, all.size()));

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(publisher.publishedIds()).anyMatch(id -> id.startsWith(refusedPrefix));
        assertThat(comparable(store.items())).isEqualTo(expected(records));
    }

    @Test
    void eventBusDown_reportsTheFirstRecordWithEvents() {
        TestRecords records = blog();
        publisher.down(true);

        BatchResult result = engine(new InMemoryDerivedStore()).process(records.records());

        assertThat(result.failedSequenceNumber()).contains(records.records().get(0).sequenceNumber());
        assertThat(result.eventsPublished()).isZero();
    }

    @Test
    void poisonRecords_goToTheDeadLetterSinkWithReason_andTheRestIsApplied() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        Map<String, AttributeValue> noType = new HashMap<>(Users.key("x").toAttributeMap());
        Map<String, AttributeValue> unknownType = new HashMap<>(Users.key("y").toAttributeMap());
        unknownType.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("Martian"));
        Map<String, AttributeValue> badStatus = new HashMap<>(p1.toItem());
        badStatus.put("status", AttributeValue.fromS("bogus"));

        records.put(noType);                                                          // 0: no entity type
        records.put(unknownType);                                                     // 1: unknown entity type
        records.put(p1.toItem());                                                     // 2: fine
        records.put(badStatus);                                                       // 3: new image malformed
        records.put(new CatalogueItem("i1", "t", 5, "back-catalogue", TestRecords.T0, 1).toItem()); // 4: derivation throws
        records.put(comment("c1", p1, "u2").toItem());                                // 5: fine
        Derivations derivations = Derivations.of(DomainRegistry.load(), TestDerivations.posts(), TestDerivations.comments(),
                new ThrowingDerivation());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        InMemoryDerivedStore store = new InMemoryDerivedStore();

        BatchResult result = engine(store, sink, derivations, new StreamMetrics(registry)).process(records.records());

        assertThat(result.failedSequenceNumber()).isEmpty();
        assertThat(result.poison()).isEqualTo(4);
        // Dead letters are filed concurrently with the derived writes: compare them in sequence order.
        List<DeadLetter> letters = sink.letters().stream()
                .sorted(java.util.Comparator.comparing(DeadLetter::sequenceNumber)).toList();
        assertThat(letters).extracting(DeadLetter::sequenceNumber).containsExactly(
                records.records().get(0).sequenceNumber(), records.records().get(1).sequenceNumber(),
                records.records().get(3).sequenceNumber(), records.records().get(4).sequenceNumber());
        assertThat(letters.get(0).reason()).contains("no entity type");
        assertThat(letters.get(1).reason()).contains("Martian");
        assertThat(letters.get(2).reason()).contains("new image").contains("bogus");
        assertThat(letters.get(3).reason()).contains("boom");
        DeadLetter malformed = letters.get(2);
        assertThat(malformed.newImage()).isEqualTo(badStatus);
        assertThat(malformed.oldImage()).isEqualTo(p1.toItem());
        assertThat(malformed.eventId()).isEqualTo(records.records().get(3).eventId());
        // The malformed post contributes nothing, as in a rebuild; the comment counts.
        assertThat(comparable(store.items())).isEqualTo(recompute(derivations, records.table()));
        assertThat(number(store, Users.statsKey("u1"), "posts")).isZero();
        assertThat(number(store, Users.statsKey("u2"), "comments")).isEqualTo(1);
        assertThat(registry.get(StreamMetrics.POISON).counter().count()).isEqualTo(4);
    }

    static Stream<Arguments> derivationErrors() {
        return Stream.of(
                Arguments.of(new StackOverflowError(), "StackOverflowError"),
                Arguments.of(new AssertionError("an invariant of the derivation"), "an invariant of the derivation"),
                Arguments.of(new ExceptionInInitializerError("a static initialiser failed"), "a static initialiser"),
                Arguments.of(new NoClassDefFoundError("io/tally/Missing"), "io/tally/Missing"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("derivationErrors")
    void derivationThrowingAnError_isPoison_andTheRestIsApplied(Error error, String reason) {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        records.put(p1.toItem());                                                               // 0: fine
        records.put(new CatalogueItem("i1", "t", 5, "back-catalogue", TestRecords.T0, 1).toItem()); // 1: throws
        records.put(comment("c1", p1, "u2").toItem());                                          // 2: fine
        Derivations derivations = Derivations.of(DomainRegistry.load(), TestDerivations.posts(),
                TestDerivations.comments(), new ThrowingDerivation(() -> error));
        InMemoryDerivedStore store = new InMemoryDerivedStore();

        BatchResult result = engine(store, sink, derivations, new StreamMetrics(new SimpleMeterRegistry()))
                .process(records.records());

        assertThat(result.failedSequenceNumber()).as("the shard moves on").isEmpty();
        assertThat(result.poison()).isEqualTo(1);
        assertThat(sink.letters()).singleElement().satisfies(letter -> {
            assertThat(letter.sequenceNumber()).isEqualTo(records.records().get(1).sequenceNumber());
            assertThat(letter.reason()).contains(reason);
        });
        assertThat(number(store, Users.statsKey("u1"), "posts")).isEqualTo(1);
        assertThat(number(store, Users.statsKey("u2"), "comments")).isEqualTo(1);
    }

    @Test
    void derivationRunningOutOfMemory_failsTheBatch_forAFreshExecutionEnvironmentToRetry() {
        TestRecords records = new TestRecords(SHARD);
        records.put(new CatalogueItem("i1", "t", 5, "back-catalogue", TestRecords.T0, 1).toItem());
        Derivations derivations = Derivations.of(DomainRegistry.load(), TestDerivations.posts(),
                TestDerivations.comments(), new ThrowingDerivation(() -> new OutOfMemoryError("Java heap space")));
        Engine engine = engine(new InMemoryDerivedStore(), sink, derivations, new StreamMetrics(new SimpleMeterRegistry()));

        assertThatThrownBy(() -> engine.process(records.records())).isInstanceOf(OutOfMemoryError.class);
        assertThat(sink.letters()).isEmpty();
    }

    @Test
    void entityTypeChangedBetweenImages_isPoison() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        Map<String, AttributeValue> renamed = new HashMap<>(p1.toItem());
        renamed.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("Comment"));
        records.raw("MODIFY", p1.key().toAttributeMap(), p1.toItem(), renamed);

        BatchResult result = engine(new InMemoryDerivedStore()).process(records.records());

        assertThat(result.poison()).isEqualTo(1);
        assertThat(sink.letters()).singleElement().extracting(DeadLetter::reason).asString()
                .contains("entity type changed");
    }

    @Test
    void deadLetterSinkFailure_reportsThePoisonRecordAndRetryFilesIt() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "One", PostStatus.CREATED);
        records.put(p1.toItem());                                            // 0
        records.put(comment("c1", p1, "u2").toItem());                       // 1
        records.raw("INSERT", Users.key("x").toAttributeMap(), null, Map.of("pk", AttributeValue.fromS("x"))); // 2
        records.put(comment("c2", p1, "u2").toItem());                       // 3
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        DeadLetterSink broken = letter -> {
            throw new IllegalStateException("table unavailable");
        };

        BatchResult result = engine(store, broken, TestDerivations.blog(), new StreamMetrics(new SimpleMeterRegistry()))
                .process(all);

        assertThat(result.failedSequenceNumber()).contains(all.get(2).sequenceNumber());
        assertThat(publisher.published()).extracting(DomainEvent::id)
                .noneMatch(id -> id.startsWith("ev-" + all.get(3).sequenceNumber() + ":"));

        BatchResult retry = engine(store).process(all.subList(2, all.size()));

        assertThat(retry.failedSequenceNumber()).isEmpty();
        assertThat(sink.letters()).singleElement().extracting(DeadLetter::sequenceNumber)
                .isEqualTo(all.get(2).sequenceNumber());
        assertThat(number(store, Users.statsKey("u2"), "comments")).isEqualTo(2);
    }

    @Test
    void derivedAndUnderivedTypes_areSkipped() {
        TestRecords records = new TestRecords(SHARD);
        Map<String, AttributeValue> stats = new HashMap<>(Users.statsKey("u1").toAttributeMap());
        stats.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(Users.USER_STATS.name()));
        stats.put("posts", AttributeValue.fromN("3"));
        records.put(stats);
        records.put(new PostRef("p1", "u1", TestRecords.T0).toItem());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());

        BatchResult result = engine(store, sink, TestDerivations.blog(), new StreamMetrics(registry))
                .process(records.records());

        assertThat(result.skipped()).isEqualTo(2);
        assertThat(store.writes()).isEmpty();
        assertThat(sink.letters()).isEmpty();
        assertThat(publisher.published()).isEmpty();
        assertThat(registry.get(StreamMetrics.RECORDS_SKIPPED).tag("reason", "derived").counter().count()).isEqualTo(1);
        assertThat(registry.get(StreamMetrics.RECORDS_SKIPPED).tag("reason", "no-derivation").counter().count())
                .isEqualTo(1);
    }

    @Test
    void metrics_afterBlogBatch_countRecordsWritesEventsAndLag() {
        TestRecords records = blog();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        BatchResult result = engine(new InMemoryDerivedStore(), sink, TestDerivations.blog(), new StreamMetrics(registry))
                .process(records.records());

        // Derived items: stats of u1, u2, u3 and projections of p1..p4.
        assertThat(result.derivedWrites()).isEqualTo(7);
        assertThat(registry.get(StreamMetrics.DERIVED_WRITES).counter().count()).isEqualTo(7);
        assertThat(registry.get(StreamMetrics.RECORDS).tags("eventName", "INSERT", "entityType", "Post").counter()
                .count()).isEqualTo(4);
        assertThat(registry.get(StreamMetrics.RECORDS).tags("eventName", "MODIFY", "entityType", "Post").counter()
                .count()).isEqualTo(2);
        assertThat(registry.get(StreamMetrics.RECORDS).tags("eventName", "REMOVE", "entityType", "Comment").counter()
                .count()).isEqualTo(1);
        assertThat(registry.get(StreamMetrics.COALESCING_RATIO).summary().mean()).isEqualTo(10.0 / 7);
        assertThat(registry.get(StreamMetrics.EVENTS_PUBLISHED).counter().count())
                .isEqualTo(publisher.published().size());
        assertThat(registry.get(StreamMetrics.BATCH_DURATION).timer().count()).isEqualTo(1);
        // Records were written at T0 + i seconds, processed at T0 + 30 s.
        assertThat(registry.get(StreamMetrics.LAG).timer().count()).isEqualTo(10);
        assertThat(registry.get(StreamMetrics.LAG).timer().max(TimeUnit.MILLISECONDS))
                .isEqualTo(Duration.ofSeconds(30).toMillis());
        assertThat(registry.find(StreamMetrics.FAILURES).counters()).isEmpty();
    }

    @Test
    void failures_areCounted() {
        TestRecords records = blog();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());
        store.throttle(Users.statsKey("u1"));
        store.throttle(BlogKeys.postProjection("p4"));

        engine(store, sink, TestDerivations.blog(), new StreamMetrics(registry)).process(records.records());

        assertThat(registry.get(StreamMetrics.FAILURES).tag("kind", "derived-write").counter().count()).isEqualTo(2);
    }

    @Test
    void events_arePublishedInRecordOrder_withUserStatsChanges() {
        TestRecords records = blog();

        engine(new InMemoryDerivedStore()).process(records.records());

        List<String> types = publisher.published().stream().map(DomainEvent::detailType).toList();
        assertThat(types).startsWith("PostCreated", "UserStatsChanged", "PostCreated", "UserStatsChanged");
        assertThat(publisher.published()).filteredOn(e -> e.detailType().equals("PostStatusChanged")).hasSize(2);
        List<String> ids = publisher.publishedIds();
        List<Long> sequences = ids.stream().map(id -> Long.parseLong(id.substring(3, id.indexOf(':')))).toList();
        assertThat(sequences).isSorted();
    }

    @Test
    void recordsOutOfOrder_areRefused() {
        List<SourceRecord> all = blog().records();
        List<SourceRecord> swapped = new ArrayList<>(all);
        swapped.set(0, all.get(1));
        swapped.set(1, all.get(0));

        assertThatThrownBy(() -> engine(new InMemoryDerivedStore()).process(swapped))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void emptyBatch_doesNothing() {
        BatchResult result = engine(new InMemoryDerivedStore()).process(List.of());

        assertThat(result.failedSequenceNumber()).isEmpty();
        assertThat(result.records()).isZero();
    }

    @Test
    void derivationWritingAReservedAttribute_isPoison() {
        TestRecords records = new TestRecords(SHARD);
        records.put(post("u1", "p1", "One", PostStatus.CREATED).toItem());
        Derivation sneaky = new EntityDerivation<Post>(Blog.POST) {
            @Override
            protected Post read(Map<String, AttributeValue> image) {
                return Post.fromItem(image);
            }

            @Override
            protected Contribution contribution(Post post) {
                return Contribution.builder().count(CounterRef.of(Users.USER_STATS, "u1", Watermarks.attributeName("x")), 1)
                        .build();
            }
        };
        FlakyDerivedStore store = new FlakyDerivedStore(new InMemoryDerivedStore());

        BatchResult result = engine(store, sink, Derivations.of(DomainRegistry.load(), sneaky), new StreamMetrics(new SimpleMeterRegistry()))
                .process(records.records());

        assertThat(result.poison()).isEqualTo(1);
        assertThat(store.writes()).isEmpty();
        assertThat(sink.letters()).singleElement().extracting(DeadLetter::reason).asString().contains("reserved");
    }

    // ------------------------------------------------------------------------- documents across shards

    /** A record of the post p1 on a shard; sequence numbers only compare within a shard. */
    private static SourceRecord postRecord(String shard, long sequence, Post before, Post after) {
        String event = before == null ? "INSERT" : after == null ? "REMOVE" : "MODIFY";
        Post any = after != null ? after : before;
        return new SourceRecord("ev-" + shard + "-" + sequence, event, shard, Long.toString(sequence), TestRecords.T0,
                any.key().toAttributeMap(), before == null ? null : before.toItem(), after == null ? null : after.toItem());
    }

    private static Post version(String title, PostStatus status, long version) {
        return new Post("p1", "u1", title, "body", status, TestRecords.T0, TestRecords.T0, version);
    }

    @Test
    void olderDocumentFromTheParentShard_afterTheChildsNewerOne_isLeftOut_countersStillApplied() {
        Post v1 = version("One", PostStatus.CREATED, 1);
        Post v2 = version("Two", PostStatus.UPDATED, 2);
        Comment comment = comment("c1", v1, "u2");
        List<SourceRecord> parent = List.of(postRecord("shardId-parent", 10, null, v1),
                new SourceRecord("ev-c1", "INSERT", "shardId-parent", "11", TestRecords.T0,
                        comment.key().toAttributeMap(), null, comment.toItem()));
        List<SourceRecord> child = List.of(postRecord("shardId-child", 20, v1, v2));
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);

        engine.process(child);
        store.clearWrites();
        BatchResult late = engine.process(parent);

        assertThat(late.failedSequenceNumber()).isEmpty();
        Map<String, AttributeValue> projection = behind.item(BlogKeys.postProjection("p1")).orElseThrow();
        assertThat(projection).containsEntry("title", AttributeValue.fromS("Two"))
                .containsEntry("status", AttributeValue.fromS("updated"))
                .containsEntry("comments", AttributeValue.fromN("1"))
                .containsEntry(TableSchema.SOURCE_REVISION, AttributeValue.fromN("4"))
                .containsEntry(Watermarks.attributeName("shardId-parent"), AttributeValue.fromS(SourceRecord.pad("11")));
        // Refused for the newer document, then written without it: the comment count and the watermark move.
        List<DerivedWrite> writes = store.writes().stream()
                .filter(w -> w.key().equals(BlogKeys.postProjection("p1"))).toList();
        assertThat(writes).hasSize(2);
        assertThat(writes.get(0).documentRevision()).isEqualTo(2L);
        assertThat(writes.get(1).hasDocument()).isFalse();
        assertThat(writes.get(1).counterAdds()).containsExactly(Map.entry("comments", 1L));
        assertThat(writes.get(1).watermarkKnown()).isTrue();
        assertThat(writes.get(1).expectedWatermark()).as("the parent shard never wrote the item").isNull();
        assertThat(number(behind, Users.statsKey("u1"), "posts")).isEqualTo(1);
    }

    @Test
    void removalInTheChildShard_beforeTheParentsLastState_isNotUndone() {
        Post v1 = version("One", PostStatus.CREATED, 1);
        Post v2 = version("Two", PostStatus.UPDATED, 2);
        List<SourceRecord> parent = List.of(postRecord("shardId-parent", 10, null, v1),
                postRecord("shardId-parent", 11, v1, v2));
        List<SourceRecord> child = List.of(postRecord("shardId-child", 20, v2, null));
        InMemoryDerivedStore store = new InMemoryDerivedStore();
        Engine engine = engine(store);

        engine.process(child);
        engine.process(parent);

        // Nothing exists any more: no projection document, no posts counted (the base table is empty).
        assertThat(comparable(store.items())).isEmpty();
        assertThat(store.item(BlogKeys.postProjection("p1")).orElseThrow())
                .containsEntry(TableSchema.SOURCE_REVISION, AttributeValue.fromN("5"))
                .doesNotContainKeys("title", "status", "postId");
    }

    @Test
    void parentThenChild_theUsualOrder_endsTheSame() {
        Post v1 = version("One", PostStatus.CREATED, 1);
        Post v2 = version("Two", PostStatus.UPDATED, 2);
        Post v3 = version("Two", PostStatus.DELETED, 3);
        InMemoryDerivedStore inOrder = new InMemoryDerivedStore();
        InMemoryDerivedStore childFirst = new InMemoryDerivedStore();
        List<SourceRecord> parent = List.of(postRecord("shardId-parent", 10, null, v1),
                postRecord("shardId-parent", 11, v1, v2));
        List<SourceRecord> child = List.of(postRecord("shardId-child", 20, v2, v3));

        engine(inOrder).process(parent);
        engine(inOrder).process(child);
        engine(childFirst).process(child);
        engine(childFirst).process(parent);

        assertThat(comparable(childFirst.items())).isEqualTo(comparable(inOrder.items()))
                .isEqualTo(recompute(TestDerivations.blog(), List.of(v3.toItem())));
    }

    @Test
    void documentWriteRefusedForAMovedWatermark_keepsItsDocumentWhenTheItemsIsOlder() {
        TestRecords records = new TestRecords(SHARD);
        records.put(version("One", PostStatus.CREATED, 1).toItem());
        records.put(version("Two", PostStatus.UPDATED, 2).toItem());
        List<SourceRecord> all = records.records();
        InMemoryDerivedStore behind = new InMemoryDerivedStore();
        FlakyDerivedStore store = new FlakyDerivedStore(behind);
        Engine engine = engine(store);
        engine.process(all.subList(0, 1));
        store.clearWrites();

        engine.process(all);

        // Refused for the watermark (record 0 applied), then record 1's document written over revision 2.
        List<DerivedWrite> writes = store.writes().stream()
                .filter(w -> w.key().equals(BlogKeys.postProjection("p1"))).toList();
        assertThat(writes).hasSize(2);
        assertThat(writes.get(1).documentRevision()).isEqualTo(4L);
        assertThat(behind.item(BlogKeys.postProjection("p1")).orElseThrow())
                .containsEntry("title", AttributeValue.fromS("Two"))
                .containsEntry(TableSchema.SOURCE_REVISION, AttributeValue.fromN("4"));
    }

    // --------------------------------------------------------------------------------------------- helpers

    /** Throws on every catalogue item: a derivation bug on some input. */
    private static final class ThrowingDerivation extends EntityDerivation<CatalogueItem> {
        /** What it throws: an unchecked exception or an error. */
        private final Supplier<? extends Throwable> failure;

        ThrowingDerivation() {
            this(() -> new IllegalStateException("boom"));
        }

        ThrowingDerivation(Supplier<? extends Throwable> failure) {
            super(Catalogue.CATALOGUE_ITEM);
            this.failure = failure;
        }

        @Override
        protected CatalogueItem read(Map<String, AttributeValue> image) {
            return CatalogueItem.fromItem(image);
        }

        @Override
        protected Contribution contribution(CatalogueItem item) {
            Throwable thrown = failure.get();
            if (thrown instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) thrown;
        }
    }
}
