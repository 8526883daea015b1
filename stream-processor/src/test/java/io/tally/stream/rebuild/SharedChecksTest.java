package io.tally.stream.rebuild;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.domains.blog.Blog;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The global totals' slots checked and repaired as one sum (pure). */
class SharedChecksTest {
    private static final Key SLOT0 = Users.globalStatsKey(0);
    private static final Key SLOT1 = Users.globalStatsKey(1);
    private static final Key SLOT2 = Users.globalStatsKey(2);
    private static final Key WHOLE = Users.GLOBAL_STATS.key("*");
    private static final String SHARD_A = "shard-a";
    private static final String SHARD_B = "shard-b";
    private static final StreamPosition POSITION = new StreamPosition("arn", List.of(SHARD_A, SHARD_B),
            Map.of(SHARD_A, pad(500), SHARD_B, pad(900)), Set.of(SHARD_A, SHARD_B));

    private static String pad(long sequence) {
        return SourceRecord.pad(Long.toString(sequence));
    }

    private static DerivedState.Item total(long users, long comments) {
        return new DerivedState.Item(Users.GLOBAL_STATS, Map.of("users", users, "comments", comments), Map.of(), null);
    }

    private static Comparison.StoredItem slot(long users, long comments, Map<String, String> watermarks) {
        Map<String, String> named = new TreeMap<>();
        watermarks.forEach((shard, sequence) -> named.put(Watermarks.attributeName(shard), sequence));
        return new Comparison.StoredItem(Users.GLOBAL_STATS,
                Map.of("users", AttributeValue.fromN(Long.toString(users)),
                        "comments", AttributeValue.fromN(Long.toString(comments))), named);
    }

    private static StreamChanges.Touches touches(String shard, long last) {
        return new StreamChanges.Touches(Users.GLOBAL_STATS, new TreeMap<>(Map.of(shard, pad(last))),
                Set.of("users"));
    }

    @Test
    void checks_slotsSummingToTheWhole_oneCheckWithoutDifferences() {
        var expected = Map.of(SLOT0, total(5, 3));
        var actual = Map.of(SLOT0, slot(1, 0, Map.of()), SLOT1, slot(3, 1, Map.of()), SLOT2, slot(1, 2, Map.of()));

        List<ItemChecks.Check> checks = ItemChecks.checks(expected, actual, Map.of());

        assertThat(checks).singleElement().satisfies(check -> {
            assertThat(check.key()).isEqualTo(WHOLE);
            assertThat(check.differences()).isEmpty();
            assertThat(check.caughtUp()).isTrue();
            assertThat(check.needsRepair()).isFalse();
        });
    }

    @Test
    void checks_sumOff_reportsTheWholeWithTheSum() {
        var expected = Map.of(SLOT0, total(5, 3));
        var actual = Map.of(SLOT1, slot(4, 3, Map.of()), SLOT2, slot(2, 0, Map.of()));

        ItemChecks.Check check = ItemChecks.checks(expected, actual, Map.of()).get(0);

        assertThat(check.differences()).singleElement().satisfies(difference -> {
            assertThat(difference.key()).isEqualTo(WHOLE);
            assertThat(difference.attribute()).isEqualTo("users");
            assertThat(difference.expected()).isEqualTo(AttributeValue.fromN("5"));
            assertThat(difference.actual()).isEqualTo(AttributeValue.fromN("6"));
        });
    }

    @Test
    void checks_oneSlotBehind_theWholeIsBehind() {
        var expected = Map.of(SLOT0, total(5, 3));
        var actual = Map.of(SLOT0, slot(5, 3, Map.of()), SLOT1, slot(0, 0, Map.of(SHARD_B, pad(700))));
        var touched = Map.of(SLOT1, touches(SHARD_B, 800));

        ItemChecks.Check check = ItemChecks.checks(expected, actual, touched).get(0);

        assertThat(check.caughtUp()).isFalse();
        assertThat(check.needsRepair()).isTrue();
    }

    @Test
    void checks_unsharedTypes_stayItemByItem_sharedOnesGoByTheirWhole() {
        Key stats = Users.statsKey("u1");
        Key projection = new Key("POSTREF#p1", "#PROJECTION#");
        var expected = Map.of(SLOT0, total(1, 0), stats, new DerivedState.Item(Users.USER_STATS, Map.of("posts", 1L),
                Map.of("userId", AttributeValue.fromS("u1")), 1L), projection, new DerivedState.Item(
                Blog.POST_PROJECTION, Map.of("comments", 1L), Map.of(), null));
        var actual = Map.of(SLOT1, slot(1, 0, Map.of()));

        assertThat(ItemChecks.checks(expected, actual, Map.of())).extracting(ItemChecks.Check::key)
                .containsExactly(projection, WHOLE, stats);
    }

    @Test
    void repairs_theWholeInSlotZero_otherSlotsEmptied_eachWithItsOwnWatermarks() {
        var expected = Map.of(SLOT0, total(5, 3));
        var actual = Map.of(SLOT1, slot(4, 3, Map.of(SHARD_A, pad(400))), SLOT2, slot(0, 0, Map.of()));
        var touched = Map.of(SLOT1, touches(SHARD_A, 450), SLOT2, touches(SHARD_B, 850));

        ItemChecks.Check check = ItemChecks.checks(expected, actual, touched).get(0);
        List<RepairWrite> writes = ItemChecks.repairs(check, POSITION, Set.of());

        Map<Key, RepairWrite> byKey = new HashMap<>();
        writes.forEach(write -> byKey.put(write.key(), write));
        assertThat(byKey).containsOnlyKeys(SLOT0, SLOT1, SLOT2);
        assertThat(byKey.get(SLOT0).values()).isEqualTo(Map.of("users", AttributeValue.fromN("5"),
                "comments", AttributeValue.fromN("3")));
        assertThat(byKey.get(SLOT0).bookkeeping()).isEmpty();
        assertThat(byKey.get(SLOT1).values()).isEmpty();
        assertThat(byKey.get(SLOT1).removals()).containsExactlyInAnyOrder("users", "comments");
        assertThat(byKey.get(SLOT1).bookkeeping()).containsOnlyKeys(Watermarks.attributeName(SHARD_A));
        assertThat(byKey.get(SLOT2).bookkeeping())
                .isEqualTo(Map.of(Watermarks.attributeName(SHARD_B), AttributeValue.fromS(pad(900))));
        assertThat(byKey.values()).allSatisfy(write -> assertThat(write.atMost())
                .containsOnlyKeys(Watermarks.attributeName(SHARD_A), Watermarks.attributeName(SHARD_B)));
    }

    @Test
    void repairs_aWholeThatShouldBeNothing_withoutASlotZero_emptiesTheOtherSlotsOnly() {
        var actual = Map.of(SLOT1, slot(2, 0, Map.of()), SLOT2, slot(1, 1, Map.of()));

        ItemChecks.Check check = ItemChecks.checks(Map.of(), actual, Map.of()).get(0);

        assertThat(check.needsRepair()).isTrue();
        List<RepairWrite> writes = ItemChecks.repairs(check, POSITION, Set.of());
        assertThat(writes).extracting(RepairWrite::key).containsExactlyInAnyOrder(SLOT1, SLOT2);
        assertThat(writes).allSatisfy(write -> assertThat(write.values()).isEmpty());
    }

    @Test
    void repairs_anEmptySlotCaughtUp_isLeftAlone() {
        var expected = Map.of(SLOT0, total(5, 3));
        var actual = Map.of(SLOT0, slot(1, 0, Map.of()), SLOT1, new Comparison.StoredItem(
                Users.GLOBAL_STATS, Map.of(), Map.of()));

        ItemChecks.Check check = ItemChecks.checks(expected, actual, Map.of()).get(0);

        assertThat(ItemChecks.repairs(check, POSITION, Set.of())).extracting(RepairWrite::key).containsExactly(SLOT0);
    }

    @Test
    void checks_aDerivationAddressingAnotherSlot_isABug() {
        var expected = Map.of(SLOT1, total(1, 0));

        assertThatThrownBy(() -> ItemChecks.checks(expected, Map.of(), Map.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("slot 0");
    }
}
