package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.TableDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/**
 * The floor's arithmetic against figures worked out by hand from DynamoDB's published rules ("DynamoDB item sizes and
 * formats"; the write costs of global secondary indexes).
 */
class WriteUnitFloorTest {
    /** A table keyed by pk/sk with one index keyed by statusShard/statusPostedAt projecting only the title. */
    private final WriteUnitFloor floor = new WriteUnitFloor(List.of("pk", "sk"), List.of(new WriteUnitFloor.Index(
            "ByStatus", List.of("statusShard", "statusPostedAt"), ProjectionType.INCLUDE, Set.of("title"))));

    @Test
    void attributeSizes_followTheDocumentedRules() {
        // A string: the name's UTF-8 bytes and the value's: 5 + 10.
        assertThat(WriteUnitFloor.attributeSize("title", s("Title p169"))).isEqualTo(15);
        // UTF-8, not characters: "é" is two bytes, "€" three.
        assertThat(WriteUnitFloor.attributeSize("n", s("é€"))).isEqualTo(1 + 5);
        // A number: 1 byte plus 1 per two significant digits, leading and trailing zeros trimmed.
        assertThat(WriteUnitFloor.attributeSize("posts", n("12345"))).isEqualTo(5 + 1 + 3);
        assertThat(WriteUnitFloor.valueSize(n("100"))).isEqualTo(1 + 1);
        assertThat(WriteUnitFloor.valueSize(n("0.05"))).isEqualTo(1 + 1);
        assertThat(WriteUnitFloor.valueSize(n("1234567890"))).isEqualTo(1 + 5);
        assertThat(WriteUnitFloor.valueSize(n("-7"))).isEqualTo(1 + 1);
        assertThat(WriteUnitFloor.valueSize(n("0"))).isEqualTo(1);
        // Binary: raw bytes; Boolean and null: 1 byte.
        assertThat(WriteUnitFloor.attributeSize("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[3]))))
                .isEqualTo(1 + 3);
        assertThat(WriteUnitFloor.attributeSize("live", AttributeValue.fromBool(true))).isEqualTo(4 + 1);
        assertThat(WriteUnitFloor.attributeSize("x", AttributeValue.fromNul(true))).isEqualTo(1 + 1);
        // A list or map: 3 bytes, plus each element's size and 1 byte for it (a map's elements with their names).
        assertThat(WriteUnitFloor.attributeSize("l", AttributeValue.fromL(List.of(s("a"), s("bc")))))
                .isEqualTo(1 + 3 + (1 + 1) + (1 + 2));
        assertThat(WriteUnitFloor.attributeSize("m", AttributeValue.fromM(Map.of("k", s("v")))))
                .isEqualTo(1 + 3 + (1 + 1 + 1));
        assertThat(WriteUnitFloor.attributeSize("e", AttributeValue.fromL(List.of()))).isEqualTo(1 + 3);
        // A set: its elements.
        assertThat(WriteUnitFloor.attributeSize("s", AttributeValue.fromSs(List.of("ab", "c")))).isEqualTo(1 + 3);
        assertThat(WriteUnitFloor.attributeSize("ns", AttributeValue.fromNs(List.of("12", "3")))).isEqualTo(2 + 2 + 2);
    }

    @Test
    void anItemIsTheSumOfItsAttributes_andAWriteUnitIsOneKbRoundedUp() {
        Map<String, AttributeValue> stats = Map.of("pk", s("USER#u1"), "sk", s("#STATS#"),
                "entityType", s("UserStats"), "posts", n("3"), "comments", n("12"));
        // 9 + 9 + 19 + 7 + 10
        assertThat(WriteUnitFloor.itemSize(stats)).isEqualTo(54);
        assertThat(WriteUnitFloor.units(54)).isEqualTo(1);
        assertThat(WriteUnitFloor.units(0)).isEqualTo(1);
        assertThat(WriteUnitFloor.units(1024)).isEqualTo(1);
        assertThat(WriteUnitFloor.units(1025)).isEqualTo(2);
        assertThat(WriteUnitFloor.units(2100)).isEqualTo(3);
        // pk (2 + 1), sk (2 + 1), d (1 + 1017): exactly 1 KB, one unit; a byte more, two.
        assertThat(WriteUnitFloor.itemSize(sized(1017))).isEqualTo(1024);
        assertThat(WriteUnitFloor.units(WriteUnitFloor.itemSize(sized(1018)))).isEqualTo(2);
    }

    @Test
    void theContent_leavesOutTheEnginesBookkeeping_andAnItemOfBookkeepingAloneIsNoItem() {
        Map<String, AttributeValue> stored = new HashMap<>(Map.of("pk", s("USER#u1"), "sk", s("#STATS#"),
                "entityType", s("UserStats"), "posts", n("3"), "wv", n("7"), "srcRev", n("2")));
        stored.put("wm_abcdefghijklmnop", s("0".repeat(40)));
        assertThat(WriteUnitFloor.content(stored)).containsOnlyKeys("pk", "sk", "entityType", "posts");
        stored.remove("posts");
        assertThat(WriteUnitFloor.content(stored)).isNull();
        assertThat(WriteUnitFloor.content(null)).isNull();
    }

    @Test
    void theTable_chargesAChangedItemOnce_atTheLargerOfItsTwoSizes() {
        assertThat(floor.units(sized(1017), sized(1017))).isEmpty();
        // Numbers compare as numbers.
        assertThat(floor.units(Map.of("pk", s("P"), "sk", s("S"), "c", n("1")),
                Map.of("pk", s("P"), "sk", s("S"), "c", n("1.0")))).isEmpty();
        assertThat(floor.units(sized(1017), sized(1018))).containsExactly(Map.entry("table", 2));
        assertThat(floor.units(sized(1018), sized(10))).containsExactly(Map.entry("table", 2));
        // Created: its size after; deleted: its size before (pk 3 + sk 3 + d 2093 = 2099 bytes, three units).
        assertThat(floor.units(null, sized(10))).containsExactly(Map.entry("table", 1));
        assertThat(floor.units(sized(2092), null)).containsExactly(Map.entry("table", 3));
    }

    @Test
    void anIndex_costsOneWriteToEnterOrLeave_twoToMove_oneForAProjectedAttribute_andNothingElse() {
        Map<String, AttributeValue> post = projection("POSTS#created#2", "Title", 1);
        // A counter the index does not project: the table alone.
        assertThat(floor.units(post, projection("POSTS#created#2", "Title", 2)))
                .containsExactly(Map.entry("table", 1));
        // A projected attribute: one index write.
        assertThat(floor.units(post, projection("POSTS#created#2", "Edited", 1)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("table", 1, "ByStatus", 1));
        // An index key: a delete and a put.
        assertThat(floor.units(post, projection("POSTS#updated#2", "Title", 1)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("table", 1, "ByStatus", 2));
        // Entering and leaving the index: one each.
        assertThat(floor.units(null, post)).containsExactlyInAnyOrderEntriesOf(Map.of("table", 1, "ByStatus", 1));
        Map<String, AttributeValue> unlisted = new HashMap<>(post);
        unlisted.remove("statusShard");
        assertThat(floor.units(post, unlisted)).containsExactlyInAnyOrderEntriesOf(Map.of("table", 1, "ByStatus", 1));
        assertThat(floor.units(unlisted, post)).containsExactlyInAnyOrderEntriesOf(Map.of("table", 1, "ByStatus", 1));
        // An item that is in neither state of the index costs it nothing.
        Map<String, AttributeValue> unlistedAgain = new HashMap<>(unlisted);
        unlistedAgain.put("title", s("Edited"));
        assertThat(floor.units(unlisted, unlistedAgain)).containsExactly(Map.entry("table", 1));
    }

    @Test
    void anIndexEntry_isTheProjectedItem_andALargeOneCostsMoreUnits() {
        Map<String, AttributeValue> post = new HashMap<>(projection("POSTS#created#2", "t".repeat(1000), 1));
        post.put("body", s("b".repeat(5000)));
        WriteUnitFloor.Index index = floor.indexes().get(0);
        // pk 3, sk 3, statusShard (11 + 15), statusPostedAt (14 + 6), title (5 + 1000): the body and comments are
        // not projected.
        assertThat(WriteUnitFloor.itemSize(floor.projected(index, post))).isEqualTo(1057);
        // The item: the entry's 1057 bytes, comments (8 + 2) and the body (4 + 5000): 6071 bytes, six units.
        assertThat(floor.units(null, post)).containsExactlyInAnyOrderEntriesOf(Map.of("table", 6, "ByStatus", 2));
        Map<String, AttributeValue> moved = new HashMap<>(post);
        moved.put("statusShard", s("POSTS#updated#2"));
        assertThat(floor.units(post, moved)).containsExactlyInAnyOrderEntriesOf(Map.of("table", 6, "ByStatus", 4));
    }

    @Test
    void theDeploymentsTable_hasItsIndexesAndProjections() {
        WriteUnitFloor deployed = WriteUnitFloor.of(TableDefinition.createTableRequest("t"));
        Map<String, WriteUnitFloor.Index> byName = new TreeMap<>();
        deployed.indexes().forEach(index -> byName.put(index.name(), index));
        assertThat(byName.get("PostsByStatus").keys()).containsExactly("statusShard", "statusPostedAt");
        assertThat(byName.get("PostsByStatus").projection()).isEqualTo(ProjectionType.INCLUDE);
        assertThat(byName.get("PostsByStatus").nonKey()).contains("title", "status").doesNotContain("comments");
        assertThat(byName.get("PostsByTime").keys()).containsExactly("pk", "postedAt");
        // A post projection's comment: the table alone (the index leaves the counter out).
        Map<String, AttributeValue> projection = new HashMap<>(Map.of("pk", s("POSTREF#p1"), "sk", s("#PROJECTION#"),
                "entityType", s("PostProjection"), "statusShard", s("POSTS#created#1"),
                "statusPostedAt", s("2026-01-01T00:00:00.000Z#p1"), "title", s("T")));
        Map<String, AttributeValue> commented = new HashMap<>(projection);
        commented.put("comments", n("1"));
        assertThat(deployed.units(projection, commented)).containsExactly(Map.entry("table", 1));
    }

    @Test
    void theShardCursor_costsTwoWritesABatch_atItsSizeWhileClaimed() {
        // holder (6 + 36), leaseUntil (10 + 1 + 7: 13 significant digits), claimedFrom (11 + 40)
        assertThat(WriteUnitFloor.CLAIM_BYTES).isEqualTo(42 + 18 + 51);
        Map<String, AttributeValue> cursor = Map.of("pk", s("SHARD#abcdefghijklmnop"), "sk", s("#CURSOR#"),
                "acknowledged", s("0".repeat(40)));
        assertThat(WriteUnitFloor.cursorUnits(null, cursor)).isEqualTo(2);
        assertThat(WriteUnitFloor.cursorUnits(cursor, sized(1000))).isEqualTo(4);
    }

    @Test
    void aBatchsAccount_setsTallysWritesAgainstTheFloorItemByItem() {
        Key stats = new Key("USER#u1", "#STATS#");
        Key projection = new Key("POSTREF#p1", "#PROJECTION#");
        Key cursor = new Key("SHARD#abcdefghijklmnop", "#CURSOR#");
        Map<Key, Map<String, AttributeValue>> before = Map.of(
                stats, Map.of("pk", s(stats.pk()), "sk", s(stats.sk()), "entityType", s("UserStats"),
                        "comments", n("1"), "wv", n("1")),
                projection, Map.of("pk", s(projection.pk()), "sk", s(projection.sk()),
                        "entityType", s("PostProjection"), "title", s("T"), "wv", n("1")));
        Map<Key, Map<String, AttributeValue>> after = Map.of(
                // The comment count went to zero and was removed: one change.
                stats, Map.of("pk", s(stats.pk()), "sk", s(stats.sk()), "entityType", s("UserStats"),
                        "wv", n("2"), "posts", n("1")),
                // Contributions that cancelled out: the write only moved the bookkeeping.
                projection, Map.of("pk", s(projection.pk()), "sk", s(projection.sk()),
                        "entityType", s("PostProjection"), "title", s("T"), "wv", n("2")),
                cursor, Map.of("pk", s(cursor.pk()), "sk", s(cursor.sk()), "entityType", s("ShardCursor"),
                        "acknowledged", s("0".repeat(40))));
        List<FloorRun.Write> writes = List.of(
                new FloorRun.Write(cursor, Map.of("table", 1.0)),
                new FloorRun.Write(stats, Map.of("table", 1.0)),
                new FloorRun.Write(projection, Map.of("table", 1.0, "PostsByStatus", 0.0)),
                new FloorRun.Write(stats, Map.of("table", 1.0)),
                new FloorRun.Write(cursor, Map.of("table", 1.0)));
        Map<String, FloorRun.Share> shares = new TreeMap<>();
        FloorRun.account(WriteUnitFloor.of(TableDefinition.createTableRequest("t")), before, after, writes, shares);

        Results.FloorShare userStats = shares.get("UserStats").result("UserStats");
        assertThat(userStats.tallyWrites()).isEqualTo(2);
        assertThat(userStats.tallyUnits()).isEqualTo(2.0);
        assertThat(userStats.floorWrites()).isEqualTo(1);
        assertThat(userStats.floorUnits()).isEqualTo(1.0);
        assertThat(userStats.repeatWrites()).isEqualTo(1);
        assertThat(userStats.repeatUnits()).isEqualTo(1.0);
        assertThat(userStats.sizeUnits()).isZero();

        Results.FloorShare posts = shares.get("PostProjection").result("PostProjection");
        assertThat(posts.floorWrites()).isZero();
        assertThat(posts.floorUnits()).isZero();
        assertThat(posts.unchangedWrites()).isEqualTo(1);
        assertThat(posts.unchangedUnits()).isEqualTo(1.0);

        Results.FloorShare cursors = shares.get("ShardCursor").result("ShardCursor");
        assertThat(cursors.tallyWrites()).isEqualTo(2);
        assertThat(cursors.floorWrites()).isEqualTo(2);
        assertThat(cursors.floorUnits()).isEqualTo(2.0);
        assertThat(cursors.sizeUnits()).isZero();
    }

    @Test
    void theReport_setsTheTargetForUniformAndZipf_atTheRatioOfAllUnits() {
        Results.Floor floor = new Results.Floor(2000, 1000, 2, List.of(
                new Results.FloorShare("UserStats", 10, 12.0, Map.of("table", 12.0), 10, 10.0, Map.of("table", 10.0),
                        1, 1.0, 1, 1.0, 0.0),
                new Results.FloorShare("ShardCursor", 4, 4.0, Map.of("table", 4.0), 4, 4.0, Map.of("table", 4.0),
                        0, 0.0, 0, 0.0, 0.0)));
        Results.WorkloadResult uniform = new Results.WorkloadResult("uniform", 0, 2000, 4, 0, 2000, 1, 0, 0, null,
                null, null, floor);
        Results.WorkloadResult hotSong = new Results.WorkloadResult("hot-song", 1.3, 2000, 4, 0, 2000, 1, 0, 0, null,
                null, null, floor);

        // (12 + 4) / (10 + 4)
        assertThat(FloorReport.ratio(floor)).isEqualTo(16.0 / 14.0);
        assertThat(FloorReport.targets(uniform)).singleElement().satisfies(target -> {
            assertThat(target.measured()).isEqualTo("1.143x");
            assertThat(target.met()).isTrue();
        });
        assertThat(FloorReport.targets(hotSong)).isEmpty();
        String section = FloorReport.section(List.of(uniform, hotSong));
        assertThat(section).startsWith("## Write units against the floor")
                .contains("| uniform | 2000 | n/a | 0.008 | 0.007 | 1.143x | 0.001 | 0.001 | 0.000 |")
                .contains("| UserStats | all | 0.005 | 0.005 | 0.006 | 0.005 | 1.20x |");
        assertThat(FloorReport.section(List.of())).isEmpty();
    }

    /** An item of pk "P", sk "S" and a string attribute "d" of {@code length} bytes: 7 + length bytes. */
    private static Map<String, AttributeValue> sized(int length) {
        return Map.of("pk", s("P"), "sk", s("S"), "d", s("x".repeat(length)));
    }

    private static Map<String, AttributeValue> projection(String statusShard, String title, int comments) {
        return Map.of("pk", s("P"), "sk", s("S"), "statusShard", s(statusShard), "statusPostedAt", s("t#p169"),
                "title", s(title), "comments", n(Integer.toString(comments)));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}
