package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.http.Access;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Views compiled to derivations, checked against a model of their definitions: a group's count is the number of
 * entities whose current state is in the group and passes the filter, a sum adds their field, a mean divides the two
 * ({@link #model}, which folds the states, not the changes).
 */
class CounterViewTest {

    /** The entity: a user's pick of an item, with a weight, live or archived. */
    public record Pick(String userId, String itemId, long weight, String status) {
        /** Its entity type here, not in the test class: the views there read picks (class initialisation order). */
        static final EntityType TYPE = EntityType.base("ViewTestPick");
        static final ItemSchema<Pick> SCHEMA = ItemSchema.of(Pick.class, TYPE,
                pick -> new Key("USER#" + pick.userId(), "PICK#" + pick.itemId())).build();
    }

    public record ItemPicks(String itemId, long picks, long weight, Double meanWeight) {
    }

    public record UserPicks(String userId, long picks) {
    }

    public record Wrong(String itemId, String label) {
    }

    public record PrimitiveMean(String itemId, long picks, double mean) {
    }

    static final CounterView<Pick, ItemPicks> PER_ITEM = CounterView.over(Pick.SCHEMA, ItemPicks.class)
            .groupBy(ItemPicks::itemId, Pick::itemId)
            .where(pick -> pick.status().equals("live"))
            .count(ItemPicks::picks)
            .sum(ItemPicks::weight, Pick::weight)
            .average(ItemPicks::meanWeight, Pick::weight, "weightForMean")
            .shared()
            .read("/stats/items/{itemId}/picks", Access.READ_SIDE, Existence.counted("item"))
            .build();

    static final CounterView<Pick, UserPicks> PER_USER = CounterView.over(Pick.SCHEMA, UserPicks.class)
            .key("USER#<userId> / #PICKS#", userId -> new Key("USER#" + userId, "#PICKS#"))
            .groupBy(UserPicks::userId, Pick::userId)
            .count(UserPicks::picks)
            .build();

    @Test
    void component_isNamedByItsAccessor_aLambdaOrAnotherRecordsIsRefused() {
        Component<ItemPicks, Long> picks = ItemPicks::picks;
        assertThat(picks.name()).isEqualTo("picks");
        assertThat(picks.record()).isEqualTo(ItemPicks.class);
        Component<ItemPicks, Long> lambda = item -> item.picks();
        assertThatThrownBy(lambda::name).hasMessageContaining("by its accessor");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, ItemPicks.class).count(viewOf(UserPicks::picks)))
                .hasMessageContaining("not of ItemPicks");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Component<ItemPicks, Number> viewOf(Component<UserPicks, Long> other) {
        return (Component) other;
    }

    @Test
    void build_refusesAnAnswerItDoesNotFill_aCountTwice_aTextFigure_andARouteWithoutTheGroup() {
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, ItemPicks.class)
                .groupBy(ItemPicks::itemId, Pick::itemId).count(ItemPicks::picks).build())
                .hasMessageContaining("no figure of the view fills [weight, meanWeight]");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserPicks.class).count(UserPicks::picks)
                .count(UserPicks::picks)).hasMessageContaining("counts twice");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Wrong.class).count(viewOfWrong(Wrong::label)))
                .hasMessageContaining("a long, not String");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, PrimitiveMean.class).count(PrimitiveMean::picks)
                .average(PrimitiveMean::mean, Pick::weight, "weights"))
                .hasMessageContaining("a Double, not double");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserPicks.class).groupBy(UserPicks::userId,
                Pick::userId).count(UserPicks::picks).read("/orgs/{orgId}/users/{userId}/picks", Access.READ_SIDE,
                Existence.zeros()).build()).hasMessageContaining("{userId} and no other");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserPicks.class).groupBy(UserPicks::userId,
                Pick::userId).count(UserPicks::picks).read("/stats/picks", Access.READ_SIDE, Existence.zeros())
                .build()).hasMessageContaining("{userId}");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, ItemPicks.class).groupBy(ItemPicks::itemId,
                Pick::itemId).sum(ItemPicks::picks, Pick::weight).sum(ItemPicks::weight, Pick::weight)
                .average(ItemPicks::meanWeight, Pick::weight, "sumOfWeights").build())
                .hasMessageContaining("an average needs the view's count");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Component<Wrong, Number> viewOfWrong(Component<Wrong, String> text) {
        return (Component) text;
    }

    @Test
    void type_isNamedAfterTheAnswer_withTheFiguresAsCounters_andADefaultKey() {
        assertThat(PER_ITEM.type().name()).isEqualTo("ItemPicks");
        assertThat(PER_ITEM.type().counters()).containsExactly("picks", "weight", "weightForMean");
        assertThat(PER_ITEM.type().isShared()).isTrue();
        assertThat(PER_ITEM.type().key("i1")).isEqualTo(new Key("ITEMPICKS#i1", "#STATS#"));
        assertThat(PER_USER.type().key("u1")).isEqualTo(new Key("USER#u1", "#PICKS#"));
        assertThat(PER_USER.type().isShared()).isFalse();
    }

    @Test
    void answer_fillsTheGroup_theFigures_andTheMeanRoundedHalfUp_nullWithoutEntities() {
        assertThat(PER_ITEM.answer("i1", Map.of("picks", 3L, "weight", 13L, "weightForMean", 13L)))
                .isEqualTo(new ItemPicks("i1", 3, 13, 4.33));
        assertThat(PER_ITEM.answer("i1", Map.of("picks", 3L, "weightForMean", 5L)).meanWeight()).isEqualTo(1.67);
        assertThat(PER_ITEM.answer("i2", Map.of())).isEqualTo(new ItemPicks("i2", 0, 0, null));
        assertThat(PER_USER.answer("u1", Map.of("picks", 7L))).isEqualTo(new UserPicks("u1", 7));
        // A count past an int's range is valid data.
        assertThat(PER_USER.answer("u1", Map.of("picks", 3_000_000_000L)).picks()).isEqualTo(3_000_000_000L);
    }

    /** Random changes of a few picks (creates, moves between items, weights, the filter in and out, deletes). */
    @Test
    void derivation_randomChanges_figuresEqualTheModelOfTheCurrentStates() {
        Derivation derivation = Views.derivations(List.<View<?>>of(PER_ITEM, PER_USER)).get(0);
        assertThat(derivation.entityType()).isEqualTo(Pick.TYPE);
        // The user, the item, the weight and the status all change: moves between both views' groups.
        RandomChanges.check(derivation, Pick.SCHEMA, 39, 2_000, 12, random -> new Pick("u" + random.nextInt(3),
                "i" + random.nextInt(4), random.nextInt(6), random.nextInt(3) == 0 ? "archived" : "live"),
                CounterViewTest::model);
    }

    /** The figures from DOMAIN.md-style definitions, state by state; zeros left out. */
    private static Map<CounterRef, Long> model(Iterable<Pick> picks) {
        Map<CounterRef, Long> figures = new HashMap<>();
        for (Pick pick : picks) {
            if (pick.status().equals("live")) {
                Key item = new Key("ITEMPICKS#" + pick.itemId(), "#STATS#");
                figures.merge(new CounterRef(item, PER_ITEM.type(), "picks"), 1L, Long::sum);
                figures.merge(new CounterRef(item, PER_ITEM.type(), "weight"), pick.weight(), Long::sum);
                figures.merge(new CounterRef(item, PER_ITEM.type(), "weightForMean"), pick.weight(), Long::sum);
            }
            figures.merge(new CounterRef(new Key("USER#" + pick.userId(), "#PICKS#"), PER_USER.type(), "picks"), 1L,
                    Long::sum);
        }
        figures.values().removeIf(value -> value == 0);
        return figures;
    }

    @Test
    void contribute_anEntityWhoseGroupIsNoId_isRefused_theDerivationReportsItAsAProblem() {
        Contribution.Builder into = Contribution.builder();
        assertThatThrownBy(() -> PER_ITEM.contribute(new Pick("u1", "", 1, "live"), into))
                .hasMessageContaining("the group itemId of the entity is not a valid id: ''");
        assertThatThrownBy(() -> PER_ITEM.contribute(new Pick("u1", null, 1, "live"), into))
                .hasMessageContaining("not a valid id: null");
        assertThatThrownBy(() -> PER_ITEM.contribute(new Pick("u1", "a#b", 1, "live"), into))
                .hasMessageContaining("not a valid id: 'a#b'");
        Derivation derivation = Views.derivations(List.<View<?>>of(PER_ITEM, PER_USER)).get(0);
        IntendedChanges changes = derivation.derive("e1", null, Pick.SCHEMA.toItem(new Pick("u1", "a#b", 1, "live")));
        assertThat(changes.problems()).singleElement().asString().contains("not a valid id");
        assertThat(changes.counterDeltas()).isEmpty();
        // Filtered out, its group is never asked for.
        PER_ITEM.contribute(new Pick("u1", "", 1, "archived"), into);
        assertThat(into.build().counters()).isEmpty();
    }
}
