package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.blog.BlogKeys;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.catalogue.CatalogueKeys;
import io.tally.core.domains.Domains;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class RebuilderTest {
    private static final Key STATS = BlogKeys.userStats("u1");
    private static final Key GLOBAL = Domains.globalStatsKey(0);

    private static DerivedState.Item stats(Map<String, Long> counters) {
        return new DerivedState.Item(Domains.USER_STATS, counters, Map.of("userId", AttributeValue.fromS("u1")), 2L);
    }

    private static Rebuilder.StoredItem stored(DerivedType type, Map<String, AttributeValue> attributes) {
        return new Rebuilder.StoredItem(type.entityType(), attributes);
    }

    @Test
    void compare_equalItems_noDifference() {
        var expected = Map.of(STATS, stats(Map.of("posts", 2L)));
        var actual = Map.of(STATS, stored(Domains.USER_STATS,
                Map.of("userId", AttributeValue.fromS("u1"), "posts", AttributeValue.fromN("2"), "comments", AttributeValue.fromN("0"))));
        assertThat(Rebuilder.compare(expected, actual)).isEmpty();
    }

    @Test
    void compare_storedItemWithWatermarksAndDocumentRevision_ignoresThatBookkeeping() {
        var expected = Map.of(STATS, stats(Map.of("posts", 2L)));
        var actual = Map.of(STATS, Rebuilder.StoredItem.of(Domains.USER_STATS.entityType(), Map.of(
                "pk", AttributeValue.fromS("USER#u1"), "sk", AttributeValue.fromS("#STATS#"),
                "entityType", AttributeValue.fromS("UserStats"), "wm_abcdefghijklmnop", AttributeValue.fromS("0042"),
                "srcRev", AttributeValue.fromN("99"),
                "userId", AttributeValue.fromS("u1"), "posts", AttributeValue.fromN("2"))));
        assertThat(Rebuilder.compare(expected, actual)).isEmpty();
    }

    @Test
    void compare_counterOff_reportsExpectedAndActual() {
        var expected = Map.of(STATS, stats(Map.of("posts", 2L)));
        var actual = Map.of(STATS, stored(Domains.USER_STATS,
                Map.of("userId", AttributeValue.fromS("u1"), "posts", AttributeValue.fromN("3"))));
        List<Difference> differences = Rebuilder.compare(expected, actual);
        assertThat(differences).containsExactly(new Difference(STATS, Domains.USER_STATS.entityType(), "posts",
                AttributeValue.fromN("2"), AttributeValue.fromN("3")));
        assertThat(differences.get(0).toString()).isEqualTo("USER#u1 / #STATS# (UserStats) posts: expected 2, found 3");
    }

    @Test
    void compare_missingDerivedItem_reportsEveryExpectedAttribute() {
        var expected = Map.of(GLOBAL, new DerivedState.Item(Domains.GLOBAL_STATS, Map.of("users", 5L), Map.of(), null));
        assertThat(Rebuilder.compare(expected, Map.of())).containsExactly(
                new Difference(GLOBAL, Domains.GLOBAL_STATS.entityType(), "users", AttributeValue.fromN("5"), null));
    }

    @Test
    void compare_storedItemNothingShouldHold_reportsNonZeroCountersAndDocumentLeftovers() {
        var actual = Map.of(CatalogueKeys.selectorEntry("55"), stored(Catalogue.SELECTOR_ENTRY,
                Map.of("itemId", AttributeValue.fromS("55"))), GLOBAL, stored(Domains.GLOBAL_STATS,
                Map.of("users", AttributeValue.fromN("0"))));
        assertThat(Rebuilder.compare(Map.of(), actual)).containsExactly(new Difference(CatalogueKeys.selectorEntry("55"),
                Catalogue.SELECTOR_ENTRY.entityType(), "itemId", null, AttributeValue.fromS("55")));
    }

    @Test
    void compare_documentValue_comparesNumbersByValue() {
        Key entry = CatalogueKeys.selectorEntry("55");
        var expected = Map.of(entry, new DerivedState.Item(Catalogue.SELECTOR_ENTRY, Map.of(),
                Map.of("score", AttributeValue.fromN("70"), "selector", AttributeValue.fromS("global-cycle:5")), 20L));
        var actual = Map.of(entry, stored(Catalogue.SELECTOR_ENTRY,
                Map.of("score", AttributeValue.fromN("70.0"), "selector", AttributeValue.fromS("global-cycle:4"))));
        assertThat(Rebuilder.compare(expected, actual)).extracting(Difference::attribute).containsExactly("selector");
    }

    @Test
    void repairRequest_recomputedDocument_setsTheDocumentRevisionToItsRevision() {
        Key entry = CatalogueKeys.selectorEntry("55");
        UpdateItemRequest request = Rebuilder.repairRequest("t", entry, List.of(new Difference(entry,
                Catalogue.SELECTOR_ENTRY.entityType(), "title", AttributeValue.fromS("New"), AttributeValue.fromS("Old"))), 42L);

        assertThat(request.updateExpression()).isEqualTo("SET #type = :type, #rev = :rev, #a0 = :v0");
        assertThat(request.expressionAttributeNames()).containsEntry("#rev", "srcRev").containsEntry("#a0", "title");
        assertThat(request.expressionAttributeValues()).containsEntry(":rev", AttributeValue.fromN("42"));
    }

    @Test
    void repairRequest_setsExpectedAndRemovesWhatShouldBeAbsent() {
        UpdateItemRequest request = Rebuilder.repairRequest("t", STATS, List.of(
                new Difference(STATS, Domains.USER_STATS.entityType(), "posts", AttributeValue.fromN("2"), AttributeValue.fromN("3")),
                new Difference(STATS, Domains.USER_STATS.entityType(), "bogus", null, AttributeValue.fromS("x"))), null);
        assertThat(request.key()).isEqualTo(STATS.toAttributeMap());
        assertThat(request.updateExpression()).isEqualTo("SET #type = :type, #a0 = :v0 REMOVE #a1");
        assertThat(request.expressionAttributeNames()).containsEntry("#a0", "posts").containsEntry("#a1", "bogus");
        assertThat(request.expressionAttributeValues()).containsEntry(":v0", AttributeValue.fromN("2"))
                .containsEntry(":type", AttributeValue.fromS("UserStats")).doesNotContainKey(":rev");
    }
}
