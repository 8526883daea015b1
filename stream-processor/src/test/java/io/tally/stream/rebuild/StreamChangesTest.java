package io.tally.stream.rebuild;

import io.tally.core.users.Users;
import static io.tally.stream.testing.TestDerivations.partial;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.testing.TestRecords;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/** The state of base items at a stream position, from a scan and the records read after it. */
class StreamChangesTest {
    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private final Recomputation recomputation = new Recomputation(derivations);
    private final StreamChanges changes = new StreamChanges(derivations, recomputation);
    private final TestRecords shard = new TestRecords("shard-a");

    private static Map<String, AttributeValue> post(String postId, PostStatus status) {
        return TestRecords.post("u1", postId, "Title " + postId, status).toItem();
    }

    private long posts() {
        DerivedState.Item stats = recomputation.expected.items().get(Users.statsKey("u1"));
        return stats == null ? 0 : stats.counters().getOrDefault("posts", 0L);
    }

    @Test
    void itemChangedAfterTheScanSawIt_countsItsLastState() {
        shard.put(post("p1", PostStatus.CREATED));
        recomputation.scanned(post("p1", PostStatus.CREATED));
        SourceRecord deleted = shard.put(post("p1", PostStatus.DELETED));
        shard.records().forEach(changes);

        changes.countLastStates();

        assertThat(recomputation.baseItems).isEqualTo(1);
        assertThat(posts()).isZero();
        StreamChanges.Touches touches = changes.touches().get(partial(Users.statsKey("u1"), "shard-a"));
        assertThat(touches.lastChange()).containsExactly(Map.entry("shard-a", deleted.paddedSequence()));
        assertThat(touches.attributes()).contains("posts");
    }

    @Test
    void documentRestatedUnchanged_doesNotTouchTheItem_asTheEngineDoesNotWriteIt() {
        SourceRecord created = shard.put(post("p1", PostStatus.CREATED));
        // Only the body and the version change: the projection's document is restated, not changed.
        io.tally.domains.blog.Post edited = new io.tally.domains.blog.Post("p1", "u1", "Title p1", "another body",
                PostStatus.CREATED, TestRecords.T0, TestRecords.T0, 2);
        shard.put(edited.toItem());
        shard.records().forEach(changes);

        // The projection's watermark stays at the creation: the item is not behind the stream.
        assertThat(changes.touches().get(BlogKeys.postProjection("p1")).lastChange())
                .containsExactly(Map.entry("shard-a", created.paddedSequence()));
    }

    @Test
    void scannedState_leavesWhenARecordShowsIt_andTheLastStateEntersOnlyAtTheEnd() {
        recomputation.scanned(post("p1", PostStatus.CREATED));
        shard.put(post("p1", PostStatus.CREATED));
        shard.put(post("p1", PostStatus.UPDATED));
        shard.records().forEach(changes);

        assertThat(posts()).as("while the stream is read").isZero();
        changes.countLastStates();
        assertThat(posts()).isEqualTo(1);
        assertThat(recomputation.baseItems).isEqualTo(1);
    }

    @Test
    void itemRemovedAfterTheScanSawIt_isGone_andOneCreatedAfterItsPageCounts() {
        recomputation.scanned(post("p1", PostStatus.CREATED));
        shard.put(post("p1", PostStatus.CREATED));
        shard.delete(post("p1", PostStatus.CREATED));
        shard.put(post("p2", PostStatus.CREATED));
        shard.records().forEach(changes);

        changes.countLastStates();

        assertThat(recomputation.baseItems).isEqualTo(1);
        assertThat(posts()).isEqualTo(1);
    }

    @Test
    void itemScannedBeforeItsFirstRecord_isFoundAsTheOldImage() {
        // Written before the stream was enabled: the stream holds no INSERT, only the later change.
        Map<String, AttributeValue> old = post("p1", PostStatus.CREATED);
        recomputation.scanned(old);
        changes.accept(shard.raw("MODIFY", Key.of(old).toAttributeMap(), old, post("p1", PostStatus.UPDATED)));

        changes.countLastStates();

        assertThat(recomputation.baseItems).isEqualTo(1);
        assertThat(posts()).isEqualTo(1);
    }

    @Test
    void scannedStateNotInTheStream_refusesToGuess() {
        recomputation.scanned(post("p1", PostStatus.UPDATED));
        Map<String, AttributeValue> other = post("p1", PostStatus.CREATED);
        changes.accept(shard.raw("REMOVE", Key.of(other).toAttributeMap(), other, null));

        assertThatThrownBy(() -> changes.countLastStates()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not hold the state the scan saw");
    }

    @Test
    void recordsOfDerivedItems_arePassedOver() {
        Map<String, AttributeValue> stats = Map.of("pk", AttributeValue.fromS("USER#u1"), "sk",
                AttributeValue.fromS("#STATS#"), "entityType", AttributeValue.fromS("UserStats"),
                "posts", AttributeValue.fromN("4"));
        changes.accept(shard.raw("INSERT", Key.of(stats).toAttributeMap(), null, stats));
        changes.countLastStates();

        assertThat(changes.records()).isEqualTo(1);
        assertThat(changes.touches()).isEmpty();
        assertThat(recomputation.baseItems).isZero();
    }

    @Test
    void fingerprint_ignoresOrderAndNumberFormat_notValues() {
        Map<String, AttributeValue> a = Map.of("n", AttributeValue.fromN("70"),
                "tags", AttributeValue.fromSs(List.of("x", "y")), "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"))));
        Map<String, AttributeValue> b = Map.of("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"))),
                "tags", AttributeValue.fromSs(List.of("y", "x")), "n", AttributeValue.fromN("70.0"));
        Map<String, AttributeValue> c = Map.of("n", AttributeValue.fromN("71"),
                "tags", AttributeValue.fromSs(List.of("x", "y")), "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"))));

        assertThat(ScannedStates.fingerprint(a)).isEqualTo(ScannedStates.fingerprint(b))
                .isNotEqualTo(ScannedStates.fingerprint(c));
        assertThat(ScannedStates.fingerprint(Map.of("a", AttributeValue.fromS("1:b"))))
                .isNotEqualTo(ScannedStates.fingerprint(Map.of("a", AttributeValue.fromS("1"), "b", AttributeValue.fromS(""))));
    }

    @Test
    void scannedStates_manyKeys_eachFoundWithItsFingerprint() {
        ScannedStates states = new ScannedStates();
        for (int i = 0; i < 5000; i++) {
            states.put(new Key("K#" + i, "S"), Map.of("v", AttributeValue.fromN(Integer.toString(i))));
        }
        assertThat(states.size()).isEqualTo(5000);
        for (int i = 0; i < 5000; i += 7) {
            assertThat(states.get(new Key("K#" + i, "S")))
                    .isEqualTo(ScannedStates.fingerprint(Map.of("v", AttributeValue.fromN(Integer.toString(i)))));
        }
        assertThat(states.get(new Key("K#5000", "S"))).isEqualTo(ScannedStates.NOT_SCANNED);
    }

    @Test
    void lineageOrder_parentsBeforeChildren_trimmedParentStartsALine() {
        Shard child = shard("child", "parent", null);
        Shard grandchild = shard("grandchild", "child", null);
        Shard parent = shard("parent", "trimmed", "99");
        Shard other = shard("other", null, null);

        assertThat(StreamHistory.lineageOrder(List.of(grandchild, child, other, parent)))
                .extracting(Shard::shardId).containsExactly("parent", "child", "grandchild", "other");
    }

    private static Shard shard(String id, String parent, String ending) {
        return Shard.builder().shardId(id).parentShardId(parent).sequenceNumberRange(SequenceNumberRange.builder()
                .startingSequenceNumber("1").endingSequenceNumber(ending).build()).build();
    }

    @Test
    void watermarkNames_areTheEngines() {
        assertThat(Watermarks.attributeName("shard-a")).startsWith("wm_");
        assertThat(Set.of(Watermarks.attributeName("shard-a"))).doesNotContain(Watermarks.attributeName("shard-b"));
    }
}
