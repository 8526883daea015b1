package io.tally.stream.rebuild;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/** Which derived items are behind a stream position, and the write that repairs one (pure). */
class RepairWriteTest {
    private static final Key STATS = Users.statsKey("u1");
    private static final String CLOSED = "shard-closed";
    private static final String OPEN = "shard-open";
    private static final String EMPTY = "shard-open-empty";
    private static final StreamPosition POSITION = new StreamPosition("arn", List.of(CLOSED, OPEN, EMPTY),
            Map.of(CLOSED, pad(500), OPEN, pad(900)), Set.of(OPEN, EMPTY));

    private static String pad(long sequence) {
        return SourceRecord.pad(Long.toString(sequence));
    }

    private static Comparison.StoredItem stored(Map<String, AttributeValue> attributes, Map<String, String> watermarks) {
        return new Comparison.StoredItem(Users.USER_STATS, attributes, watermarks);
    }

    private static StreamChanges.Touches touches(Map<String, String> lastChange, String... attributes) {
        return new StreamChanges.Touches(Users.USER_STATS, new TreeMap<>(lastChange), Set.of(attributes));
    }

    @Test
    void caughtUp_needsAWatermarkAtTheLastChangeOfEveryShardThatChangesTheItem() {
        var touches = touches(Map.of(CLOSED, pad(400), OPEN, pad(800)), "posts");
        var behind = stored(Map.of(), Map.of(Watermarks.attributeName(CLOSED), pad(400),
                Watermarks.attributeName(OPEN), pad(700)));
        var upToDate = stored(Map.of(), Map.of(Watermarks.attributeName(CLOSED), pad(400),
                Watermarks.attributeName(OPEN), pad(800)));

        assertThat(ItemChecks.caughtUp(behind, touches)).isFalse();
        assertThat(ItemChecks.caughtUp(upToDate, touches)).isTrue();
        assertThat(ItemChecks.caughtUp(null, touches)).isFalse();
        assertThat(ItemChecks.caughtUp(null, null)).isTrue();
    }

    @Test
    void settled_aMissingItemWhoseChangesTheCursorsReadBeforeTheScanSayWereApplied_butNotAStaleOne() {
        var touches = touches(Map.of(CLOSED, pad(400), OPEN, pad(800)), "posts");
        var stale = stored(Map.of(), Map.of(Watermarks.attributeName(CLOSED), pad(400),
                Watermarks.attributeName(OPEN), pad(700)));
        // acknowledged: every record up to it applied; pending: every record before it applied.
        AppliedRecords both = AppliedRecords.of(Map.of(OPEN, new String[] {pad(800), null},
                CLOSED, new String[] {pad(500), null}));
        AppliedRecords pendingAfter = AppliedRecords.of(Map.of(OPEN, new String[] {pad(100), pad(801)},
                CLOSED, new String[] {pad(400), null}));
        AppliedRecords oneShort = AppliedRecords.of(Map.of(OPEN, new String[] {pad(799), null},
                CLOSED, new String[] {pad(500), null}));
        AppliedRecords pendingAt = AppliedRecords.of(Map.of(OPEN, new String[] {null, pad(800)},
                CLOSED, new String[] {pad(500), null}));
        AppliedRecords oneShard = AppliedRecords.of(Map.of(OPEN, new String[] {pad(900), null}));

        // Deleted after the stream processor wrote it: nothing will bring it back, so it compares as missing.
        assertThat(ItemChecks.settled(null, touches, both)).isTrue();
        assertThat(ItemChecks.settled(null, touches, pendingAfter)).isTrue();
        assertThat(ItemChecks.settled(null, touches, oneShort)).isFalse();
        assertThat(ItemChecks.settled(null, touches, pendingAt)).isFalse();
        assertThat(ItemChecks.settled(null, touches, oneShard)).isFalse();
        assertThat(ItemChecks.settled(null, touches, AppliedRecords.NONE)).isFalse();
        // One that exists with watermarks below applied records would take them again if delivered again: behind,
        // for a repair to set its watermarks, whatever the cursors say.
        assertThat(ItemChecks.settled(stale, touches, both)).isFalse();
        assertThat(ItemChecks.caughtUp(stale, touches)).isFalse();
        assertThat(ItemChecks.settled(null, null, AppliedRecords.NONE)).isTrue();
    }

    @Test
    void repair_setsTheContentAndThePosition_removesTheRest_guardsTheOpenAndUnknownShards() {
        var want = new DerivedState.Item(Users.USER_STATS, Map.of("posts", 2L), Map.of("userId", AttributeValue.fromS("u1")),
                6L);
        var have = stored(Map.of("posts", AttributeValue.fromN("9"), "bogus", AttributeValue.fromS("x")), Map.of());
        var check = new ItemChecks.Check(STATS, want, have, touches(Map.of(CLOSED, pad(400)), "posts", "comments"),
                false, false, List.of(), List.of());

        RepairWrite write = ItemChecks.repair(check, POSITION, Set.of("shard-new"));

        assertThat(write.values()).containsOnlyKeys("posts", "userId");
        assertThat(write.removals()).containsExactlyInAnyOrder("bogus", "comments");
        assertThat(write.bookkeeping()).containsOnly(
                Map.entry(Watermarks.attributeName(CLOSED), AttributeValue.fromS(pad(500))),
                // The document's source revision, so that only newer documents of the source land afterwards.
                Map.entry(TableSchema.SOURCE_REVISION, AttributeValue.fromN("6")));
        assertThat(write.atMost()).containsExactly(Map.entry(Watermarks.attributeName(OPEN), pad(900)));
        assertThat(write.absent()).containsExactlyInAnyOrder(Watermarks.attributeName(EMPTY),
                Watermarks.attributeName("shard-new"));
    }

    @Test
    void admits_whileNoOpenShardIsPastThePosition_andNoUnknownShardHasWritten() {
        String wm = Watermarks.attributeName(OPEN);
        String unknown = Watermarks.attributeName("shard-new");
        RepairWrite write = new RepairWrite(STATS, Users.USER_STATS.entityType(), Map.of(), Set.of(), Map.of(),
                Map.of(wm, pad(900)), Set.of(unknown));

        assertThat(write.admits(Map.of())).isTrue();
        assertThat(write.admits(Map.of(wm, AttributeValue.fromS(pad(900))))).isTrue();
        assertThat(write.admits(Map.of(wm, AttributeValue.fromS(pad(901))))).isFalse();
        assertThat(write.admits(Map.of(unknown, AttributeValue.fromS(pad(1))))).isFalse();
    }

    @Test
    void toPut_replacesTheItem_keepsOtherShardsWatermarks_movesTheVersion_onTheVersionRead() {
        String wm = Watermarks.attributeName(OPEN);
        String other = Watermarks.attributeName(CLOSED);
        RepairWrite write = new RepairWrite(STATS, Users.USER_STATS.entityType(),
                Map.of("posts", AttributeValue.fromN("2")), Set.of("comments"), Map.of(wm, AttributeValue.fromS(pad(900))),
                Map.of(wm, pad(900)), Set.of());
        Map<String, AttributeValue> current = new HashMap<>(STATS.toAttributeMap());
        current.putAll(Map.of("comments", AttributeValue.fromN("7"), "posts", AttributeValue.fromN("9"),
                wm, AttributeValue.fromS(pad(800)), other, AttributeValue.fromS(pad(5)),
                TableSchema.WRITE_VERSION, AttributeValue.fromN("41")));

        Put put = write.toPut("t", current);

        Map<String, AttributeValue> expected = new HashMap<>(STATS.toAttributeMap());
        expected.putAll(Map.of(TableSchema.ENTITY_TYPE, AttributeValue.fromS("UserStats"),
                "posts", AttributeValue.fromN("2"), wm, AttributeValue.fromS(pad(900)), other, AttributeValue.fromS(pad(5)),
                TableSchema.WRITE_VERSION, AttributeValue.fromN("42")));
        assertThat(put.item()).isEqualTo(expected);
        assertThat(put.conditionExpression()).isEqualTo("#wv = :seen");
        assertThat(put.expressionAttributeNames()).isEqualTo(Map.of("#wv", "wv"));
        assertThat(put.expressionAttributeValues()).isEqualTo(Map.of(":seen", AttributeValue.fromN("41")));
    }

    @Test
    void toPutItem_ofAnItemWithoutAVersion_requiresStillNone() {
        PutItemRequest request = new RepairWrite(STATS, Users.USER_STATS.entityType(), Map.of(), Set.of("posts"),
                Map.of(), Map.of(), Set.of()).toPutItem("t", Map.of());

        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(#wv)");
        assertThat(request.hasExpressionAttributeValues()).isFalse();
        assertThat(request.item()).doesNotContainKey("posts");
        // Made anew: a version from the clock, never one an earlier item of this key had (a fold read it at 1, say).
        assertThat(Long.parseLong(request.item().get(TableSchema.WRITE_VERSION).n())).isGreaterThan(1_700_000_000_000L);
    }

    @Test
    void repairWrite_refusesBookkeepingAsContentAndContentAsBookkeeping() {
        var type = Users.USER_STATS.entityType();
        assertThatThrownBy(() -> new RepairWrite(STATS, type, Map.of("wm_x", AttributeValue.fromS("1")), Set.of(),
                Map.of(), Map.of(), Set.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RepairWrite(STATS, type, Map.of(), Set.of(), Map.of("posts", AttributeValue.fromN("1")),
                Map.of(), Set.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RepairWrite(STATS, type, Map.of("posts", AttributeValue.fromN("1")), Set.of("posts"),
                Map.of(), Map.of(), Set.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void derivedState_subtract_takesBackWhatAddCounted() {
        var contribution = new io.tally.core.derive.IntendedChanges(
                Map.of(io.tally.core.derive.CounterRef.of(Users.USER_STATS, "u1", "posts"), 1L),
                Map.of(STATS, new io.tally.core.derive.Document(Users.USER_STATS,
                        Map.of("userId", AttributeValue.fromS("u1")), 2L)), List.of(), List.of());
        DerivedState state = new DerivedState();
        state.add(contribution);
        state.add(contribution);
        state.subtract(contribution);

        assertThat(state.items().get(STATS).counters()).containsExactly(Map.entry("posts", 1L));
        assertThat(state.items().get(STATS).document()).containsOnlyKeys("userId");
        state.subtract(contribution);
        assertThat(state.items().get(STATS).counters()).isEmpty();
        assertThat(state.items().get(STATS).document()).isEmpty();
    }
}
