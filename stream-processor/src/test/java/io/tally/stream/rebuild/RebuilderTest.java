package io.tally.stream.rebuild;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The comparison of stored derived items with the recomputation. */
class RebuilderTest {
    private static final Key STATS = Users.statsKey("u1");
    private static final Key GLOBAL = Users.globalStatsKey(0);

    private static DerivedState.Item stats(Map<String, Long> counters) {
        return new DerivedState.Item(Users.USER_STATS, counters, Map.of("userId", AttributeValue.fromS("u1")), 2L);
    }

    private static Comparison.StoredItem stored(DerivedType type, Map<String, AttributeValue> attributes) {
        return new Comparison.StoredItem(type, attributes);
    }

    @Test
    void compare_equalItems_noDifference() {
        var expected = Map.of(STATS, stats(Map.of("posts", 2L)));
        var actual = Map.of(STATS, stored(Users.USER_STATS,
                Map.of("userId", AttributeValue.fromS("u1"), "posts", AttributeValue.fromN("2"), "comments", AttributeValue.fromN("0"))));
        assertThat(Comparison.compare(expected, actual)).isEmpty();
    }

    @Test
    void compare_counterOff_reportsExpectedAndActual() {
        var expected = Map.of(STATS, stats(Map.of("posts", 2L)));
        var actual = Map.of(STATS, stored(Users.USER_STATS,
                Map.of("userId", AttributeValue.fromS("u1"), "posts", AttributeValue.fromN("3"))));
        List<Difference> differences = Comparison.compare(expected, actual);
        assertThat(differences).containsExactly(new Difference(STATS, Users.USER_STATS.entityType(), "posts",
                AttributeValue.fromN("2"), AttributeValue.fromN("3")));
        assertThat(differences.get(0).toString()).isEqualTo("USER#u1 / #STATS# (UserStats) posts: expected 2, found 3");
    }

    @Test
    void compare_missingDerivedItem_reportsEveryExpectedAttribute() {
        var expected = Map.of(GLOBAL, new DerivedState.Item(Users.GLOBAL_STATS, Map.of("users", 5L), Map.of(), null));
        assertThat(Comparison.compare(expected, Map.of())).containsExactly(
                new Difference(GLOBAL, Users.GLOBAL_STATS.entityType(), "users", AttributeValue.fromN("5"), null));
    }

    @Test
    void compare_storedItemNothingShouldHold_reportsNonZeroCountersAndDocumentLeftovers() {
        var actual = Map.of(CatalogueKeys.selectorEntry("55"), stored(Catalogue.SELECTOR_ENTRY,
                Map.of("itemId", AttributeValue.fromS("55"))), GLOBAL, stored(Users.GLOBAL_STATS,
                Map.of("users", AttributeValue.fromN("0"))));
        assertThat(Comparison.compare(Map.of(), actual)).containsExactly(new Difference(CatalogueKeys.selectorEntry("55"),
                Catalogue.SELECTOR_ENTRY.entityType(), "itemId", null, AttributeValue.fromS("55")));
    }

    @Test
    void compare_documentValue_comparesNumbersByValue() {
        Key entry = CatalogueKeys.selectorEntry("55");
        var expected = Map.of(entry, new DerivedState.Item(Catalogue.SELECTOR_ENTRY, Map.of(),
                Map.of("score", AttributeValue.fromN("70"), "selector", AttributeValue.fromS("global-cycle:5")), 4L));
        var actual = Map.of(entry, stored(Catalogue.SELECTOR_ENTRY,
                Map.of("score", AttributeValue.fromN("70.0"), "selector", AttributeValue.fromS("global-cycle:4"))));
        assertThat(Comparison.compare(expected, actual)).extracting(Difference::attribute).containsExactly("selector");
    }

    @Test
    void compare_anEntryWithAConstantDocument_allCountersZero_isTheSameAsNone() {
        DerivedType entry = DerivedType.named("RebuilderTestEntry").key("E#<id> / #RANK#", id -> new Key("E#" + id,
                "#RANK#")).counters("data").indexKeys("selector").constantDocument().build();
        Key key = entry.key("i1");
        Map<String, AttributeValue> document = Map.of("selector", AttributeValue.fromS("rank:E:0"));
        Map<String, AttributeValue> emptied = Map.of("selector", AttributeValue.fromS("rank:E:0"),
                "data", AttributeValue.fromN("0"));

        // Stored at 0 after its last source went, nothing recomputed: the same.
        assertThat(Comparison.compare(Map.of(), Map.of(key, stored(entry, emptied)))).isEmpty();
        assertThat(Comparison.compare(Map.of(key, new DerivedState.Item(entry, Map.of(), document, 0L)),
                Map.of(key, stored(entry, emptied)))).isEmpty();
        // Anything else still counts: a figure left, or one missing.
        assertThat(Comparison.compare(Map.of(), Map.of(key, stored(entry, Map.of("selector",
                AttributeValue.fromS("rank:E:0"), "data", AttributeValue.fromN("2")))))).extracting(
                Difference::attribute).containsExactly("data", "selector");
        assertThat(Comparison.compare(Map.of(key, new DerivedState.Item(entry, Map.of("data", 1L), document, 0L)),
                Map.of(key, stored(entry, emptied)))).extracting(Difference::attribute).containsExactly("data");
        // A type without a constant document keeps its document leftovers reported (above).
    }
}
