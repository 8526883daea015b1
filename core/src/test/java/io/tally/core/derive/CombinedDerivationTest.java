package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CombinedDerivationTest {
    private static final EntityType THING = EntityType.base("CombinedTestThing");
    private static final EntityType OTHER = EntityType.base("CombinedTestOther");
    private static final DerivedType TOTALS = DerivedType.named("CombinedTestTotals")
            .key("TOTALS#<id> / #STATS#", id -> new Key("TOTALS#" + id, "#STATS#")).counters("things", "weight")
            .document("label").build();

    private static Derivation part(EntityType type, long things, long weight, String label, String problem) {
        return new Derivation() {
            @Override
            public EntityType entityType() {
                return type;
            }

            @Override
            public IntendedChanges derive(String eventId, Map<String, AttributeValue> oldImage,
                                          Map<String, AttributeValue> newImage) {
                Map<CounterRef, Long> deltas = Map.of(CounterRef.of(TOTALS, "t", "things"), things,
                        CounterRef.of(TOTALS, "t", "weight"), weight);
                Map<Key, Document> documents = label == null ? Map.of() : Map.of(TOTALS.key("t"),
                        new Document(TOTALS, Map.of("label", AttributeValue.fromS(label)), 2));
                return new IntendedChanges(deltas, documents, List.of(), List.of(),
                        problem == null ? List.of() : List.of(problem), Set.of());
            }
        };
    }

    @Test
    void withViews_combinesTheOwnDerivationOfATypeWithTheViews_leavesTheOthersAsTheyAre() {
        Derivation alone = part(OTHER, 1, 0, null, null);
        Derivation viewsOnly = part(EntityType.base("CombinedTestViewed"), 1, 0, null, null);
        List<Derivation> combined = CombinedDerivation.withViews(List.of(part(THING, 1, 2, null, null), alone),
                List.of(part(THING, 0, 3, "x", null), viewsOnly));

        assertThat(combined).hasSize(3);
        assertThat(combined.get(1)).isSameAs(alone);
        assertThat(combined.get(2)).isSameAs(viewsOnly);
        assertThat(combined.get(0)).isInstanceOf(CombinedDerivation.class);
        IntendedChanges changes = combined.get(0).derive("e1", null, Map.of());
        assertThat(changes.counterDeltas()).containsOnly(Map.entry(CounterRef.of(TOTALS, "t", "things"), 1L),
                Map.entry(CounterRef.of(TOTALS, "t", "weight"), 5L));
        assertThat(changes.documents()).containsOnlyKeys(TOTALS.key("t"));
        assertThat(changes.problems()).isEmpty();
    }

    @Test
    void withViews_severalGeneratedOfAType_joinTheOwn_orEachOther_inOrder() {
        EntityType viewed = EntityType.base("CombinedTestViewed");
        List<Derivation> combined = CombinedDerivation.withViews(List.of(part(THING, 1, 0, null, null)),
                List.of(part(THING, 0, 3, null, null), part(viewed, 1, 0, null, null), part(THING, 2, 0, null, null),
                        part(viewed, 0, 7, null, null)));

        assertThat(combined).hasSize(2).allMatch(CombinedDerivation.class::isInstance);
        assertThat(((CombinedDerivation) combined.get(0)).parts()).hasSize(3);
        assertThat(combined.get(0).derive("e1", null, Map.of()).counterDeltas())
                .containsOnly(Map.entry(CounterRef.of(TOTALS, "t", "things"), 3L),
                        Map.entry(CounterRef.of(TOTALS, "t", "weight"), 3L));
        assertThat(combined.get(1).entityType()).isEqualTo(viewed);
        assertThat(combined.get(1).derive("e1", null, Map.of()).counterDeltas())
                .containsOnly(Map.entry(CounterRef.of(TOTALS, "t", "things"), 1L),
                        Map.entry(CounterRef.of(TOTALS, "t", "weight"), 7L));
    }

    @Test
    void withViews_twoOwnDerivationsOfAType_areLeftForTheRegistryToRefuse() {
        List<Derivation> combined = CombinedDerivation.withViews(List.of(part(THING, 1, 0, null, null),
                part(THING, 1, 0, null, null)), List.of());

        assertThat(combined).hasSize(2).noneMatch(CombinedDerivation.class::isInstance);
    }

    @Test
    void derive_deltasThatCancel_areDropped_problemsJoinedOnce_aDocumentTwoPartsOwn_isAProblemAndNotWritten() {
        Derivation combined = CombinedDerivation.withViews(List.of(part(THING, 1, 2, "a", "first")),
                List.of(part(THING, -1, 0, "b", "first"))).get(0);

        IntendedChanges changes = combined.derive("e1", null, Map.of());

        assertThat(changes.counterDeltas()).containsOnlyKeys(CounterRef.of(TOTALS, "t", "weight"));
        assertThat(changes.documents()).isEmpty();
        // The same problem from both parts (each reads the images itself) is reported once.
        assertThat(changes.problems()).containsExactly("first",
                "two derivations of CombinedTestThing own the document of " + TOTALS.key("t"));
    }
}
