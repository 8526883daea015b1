package io.tally.domains.catalogue;

import static io.tally.core.derive.DerivationCase.RECORD_ID;
import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.Document;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CatalogueItemDerivationTest {
    private static final int SELECTOR_SHARDS = 7;
    /** The item's derivation as the registry joins it with the catalogue's views (its global count is a view's). */
    private static final Derivation DERIVATION = DomainRegistry.load().derivations(ShardSettings.DEFAULTS
            .with(CatalogueKeys.SELECTOR_SHARDS, SELECTOR_SHARDS)).forType(Catalogue.CATALOGUE_ITEM).orElseThrow();

    private static final Instant T1 = Instant.parse("2019-01-22T10:00:00.000Z");
    private static final Instant T2 = Instant.parse("2019-01-29T10:00:00.000Z");
    private static final CatalogueItem IN_CYCLE = new CatalogueItem("55", "Ownership", 70, "global-cycle:5", T1, 10);
    private static final CatalogueItem TO_BACK_CATALOGUE = new CatalogueItem("55", "Ownership", 85, "back-catalogue", T2, 11);
    private static final CatalogueItem UNTITLED = new CatalogueItem("55", null, 85, "back-catalogue", T2, 12);

    private static final Key ENTRY = CatalogueKeys.selectorEntry("55");
    private static final CounterRef GLOBAL_ITEMS =
            SharedStats.global(Catalogue.GLOBAL_ITEMS);

    static Stream<DerivationCase> cases() {
        return Stream.of(
                new DerivationCase("insert_cycleItem_countsAndEntersItsCyclePartition",
                        null, IN_CYCLE.toItem(),
                        deltas(GLOBAL_ITEMS, 1),
                        Map.of(ENTRY, entry("55", "Ownership", 70, "global-cycle:5", 20)),
                        List.of()),
                new DerivationCase("replace_movedToBackCatalogue_movesEntryToItsShardWithNewScore",
                        IN_CYCLE.toItem(), TO_BACK_CATALOGUE.toItem(),
                        Map.of(),
                        Map.of(ENTRY, entry("55", "Ownership", 85, "back-catalogue:" + Shards.of("55", SELECTOR_SHARDS), 22)),
                        List.of()),
                new DerivationCase("replace_titleDropped_entryWithoutTitle",
                        TO_BACK_CATALOGUE.toItem(), UNTITLED.toItem(),
                        Map.of(),
                        Map.of(ENTRY, entry("55", null, 85, "back-catalogue:" + Shards.of("55", SELECTOR_SHARDS), 24)),
                        List.of()),
                new DerivationCase("remove_item_uncountsAndRemovesEntry",
                        IN_CYCLE.toItem(), null,
                        deltas(GLOBAL_ITEMS, -1),
                        Map.of(ENTRY, Document.removed(Catalogue.SELECTOR_ENTRY, 21)),
                        List.of()),
                new DerivationCase("rewrite_unchangedImage_noDeltasNoEvents",
                        IN_CYCLE.toItem(), IN_CYCLE.toItem(),
                        Map.of(),
                        Map.of(ENTRY, entry("55", "Ownership", 70, "global-cycle:5", 20)),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change) {
        change.assertDerivedBy(DERIVATION);
    }

    static Stream<Arguments> malformedImages() {
        Map<String, AttributeValue> item = IN_CYCLE.toItem();
        return Stream.of(
                Arguments.of(Named.of("missing score", with(item, "score", null))),
                Arguments.of(Named.of("score not an integer", with(item, "score", AttributeValue.fromN("7.5")))),
                Arguments.of(Named.of("title not a string", with(item, "title", AttributeValue.fromN("1")))),
                Arguments.of(Named.of("missing itemSelector", with(item, "itemSelector", null))),
                Arguments.of(Named.of("revision not a number", with(item, "revision", AttributeValue.fromS("10")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedImages")
    void derive_malformedImage_isAProblemAndContributesNothing(Map<String, AttributeValue> image) {
        DerivationCase.assertUnreadable(DERIVATION, image);
    }

    @Test
    void entry_anyItem_scoreAndDataAreNumbersTheRestStrings() {
        Map<String, AttributeValue> values = DERIVATION.derive(RECORD_ID, null, IN_CYCLE.toItem()).documents().get(ENTRY).values();

        assertThat(values.get(Catalogue.Entry.SCORE).n()).isEqualTo("70");
        assertThat(values.get(TableSchema.DATA).n()).isEqualTo("70");
        assertThat(values.get(Catalogue.Entry.ITEM_ID).s()).isEqualTo("55");
        assertThat(values.get(TableSchema.SELECTOR).s()).isEqualTo("global-cycle:5");
    }

    @Test
    void revision_deleteThenRecreate_removalBeatsTheDeletedStateAndTheRecreationBeatsTheRemoval() {
        CatalogueItem recreated = new CatalogueItem("55", "Again", 5, "back-catalogue", T2,
                CatalogueItem.nextRevision(0, T2));

        long live = DERIVATION.derive(RECORD_ID, null, IN_CYCLE.toItem()).documents().get(ENTRY).revision();
        long removal = DERIVATION.derive(RECORD_ID, IN_CYCLE.toItem(), null).documents().get(ENTRY).revision();
        long again = DERIVATION.derive(RECORD_ID, null, recreated.toItem()).documents().get(ENTRY).revision();

        assertThat(live).isEqualTo(20);
        assertThat(removal).isEqualTo(21);
        assertThat(again).isEqualTo(2 * recreated.revision()).isGreaterThan(removal);
    }

    @Test
    void revision_itemWrittenBeforeRevisions_entryAtRevisionZero_removalAtOne() {
        Map<String, AttributeValue> legacy = with(IN_CYCLE.toItem(), "revision", null);

        assertThat(DERIVATION.derive(RECORD_ID, null, legacy).documents().get(ENTRY).revision()).isZero();
        assertThat(DERIVATION.derive(RECORD_ID, legacy, null).documents().get(ENTRY).revision()).isEqualTo(1);
    }

    @Test
    void shards_backCatalogueItems_spreadOverEveryShardAtTheirStablePlace() {
        Set<String> partitions = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            CatalogueItem item = new CatalogueItem("item-" + i, null, i, "back-catalogue", T1, 1);
            String partition = DERIVATION.derive(RECORD_ID, null, item.toItem()).documents().get(CatalogueKeys.selectorEntry("item-" + i))
                    .values().get(TableSchema.SELECTOR).s();

            assertThat(partition).isEqualTo("back-catalogue:" + Shards.of("item-" + i, SELECTOR_SHARDS));
            partitions.add(partition);
        }
        // Every shard of the setting (not the default 4), and none beyond.
        assertThat(partitions).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, SELECTOR_SHARDS)
                .mapToObj(shard -> "back-catalogue:" + shard).toList());
    }

    private static Document entry(String itemId, String title, long score, String selector, long revision) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(Catalogue.Entry.ITEM_ID, AttributeValue.fromS(itemId));
        if (title != null) {
            values.put(Catalogue.Entry.TITLE, AttributeValue.fromS(title));
        }
        values.put(Catalogue.Entry.SCORE, AttributeValue.fromN(Long.toString(score)));
        values.put(TableSchema.SELECTOR, AttributeValue.fromS(selector));
        values.put(TableSchema.DATA, AttributeValue.fromN(Long.toString(score)));
        return new Document(Catalogue.SELECTOR_ENTRY, values, revision);
    }
}
