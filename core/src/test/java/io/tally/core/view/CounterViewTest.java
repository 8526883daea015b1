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

    /** Grouped by two fields: a user's picks per status, in the path's order status first. */
    public record UserStatusPicks(String status, String userId, long picks, long weight) {
    }

    /** Counts per value: a user's picks per status (live first, then archived) and per item (by id). */
    public record UserValues(String userId, long picks, Map<String, Long> byStatus, Map<String, Long> byItem) {
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

    static final CounterView<Pick, UserStatusPicks> PER_USER_STATUS = CounterView.over(Pick.SCHEMA,
                    UserStatusPicks.class)
            .groupBy(UserStatusPicks::userId, Pick::userId).groupBy(UserStatusPicks::status, Pick::status)
            .count(UserStatusPicks::picks).sum(UserStatusPicks::weight, Pick::weight)
            .read("/stats/picks/{status}/users/{userId}", Access.READ_SIDE, Existence.counted("picks of"))
            .build();

    static final CounterView<Pick, UserValues> PER_USER_VALUES = CounterView.over(Pick.SCHEMA, UserValues.class)
            .groupBy(UserValues::userId, Pick::userId).count(UserValues::picks)
            .countPer(UserValues::byStatus, Pick::status, "status:", List.of("live", "archived"))
            .countPer(UserValues::byItem, Pick::itemId, "item:").shared().build();

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
        // Several fields: their ids in the key in the order grouped, whatever the answer's order.
        assertThat(PER_USER_STATUS.groups()).containsExactly("userId", "status");
        assertThat(PER_USER_STATUS.type().keyPattern()).isEqualTo("USERSTATUSPICKS#<userId>#<status> / #STATS#");
        assertThat(PER_USER_STATUS.subject(List.of("u1", "live"), null)).isEqualTo("u1#live");
        assertThat(PER_USER_STATUS.type().key("u1#live")).isEqualTo(new Key("USERSTATUSPICKS#u1#live", "#STATS#"));
    }

    @Test
    void severalFields_eachIdIsChecked_theRouteHoldsEachOne_aFieldTwiceIsRefused() {
        Contribution.Builder into = Contribution.builder();
        assertThatThrownBy(() -> PER_USER_STATUS.contribute(new Pick("u1", "i1", 1, "a#b"), into))
                .hasMessageContaining("the group status of the entity is not a valid id: 'a#b'");
        PER_USER_STATUS.contribute(new Pick("u2", "i1", 4, "live"), into);
        assertThat(into.build().counters()).containsOnlyKeys(
                new CounterRef(new Key("USERSTATUSPICKS#u2#live", "#STATS#"), PER_USER_STATUS.type(), "picks"),
                new CounterRef(new Key("USERSTATUSPICKS#u2#live", "#STATS#"), PER_USER_STATUS.type(), "weight"));
        assertThat(PER_USER_STATUS.answer(List.of("u2", "live"), null, Map.of("picks", 2L, "weight", 9L)))
                .isEqualTo(new UserStatusPicks("live", "u2", 2, 9));
        assertThatThrownBy(() -> PER_USER_STATUS.answer("u2", Map.of())).hasMessageContaining("not by [u2]");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserStatusPicks.class)
                .groupBy(UserStatusPicks::userId, Pick::userId).groupBy(UserStatusPicks::userId, Pick::itemId))
                .hasMessageContaining("already grouped by userId");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserStatusPicks.class)
                .groupBy(UserStatusPicks::userId, Pick::userId).groupBy(UserStatusPicks::status, Pick::status)
                .count(UserStatusPicks::picks).sum(UserStatusPicks::weight, Pick::weight)
                .read("/stats/users/{userId}/picks", Access.READ_SIDE, Existence.zeros()).build())
                .hasMessageContaining("{userId}, {status} and no other");
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
        Derivation derivation = Views.derivations(List.<View<?>>of(PER_ITEM, PER_USER, PER_USER_STATUS,
                PER_USER_VALUES)).get(0);
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
            // Per user and status: a status change moves the pick between two of the user's items.
            Key userStatus = new Key("USERSTATUSPICKS#" + pick.userId() + "#" + pick.status(), "#STATS#");
            figures.merge(new CounterRef(userStatus, PER_USER_STATUS.type(), "picks"), 1L, Long::sum);
            figures.merge(new CounterRef(userStatus, PER_USER_STATUS.type(), "weight"), pick.weight(), Long::sum);
            // Per value: one counter per status and per item of the user's.
            Key values = new Key("USERVALUES#" + pick.userId(), "#STATS#");
            figures.merge(new CounterRef(values, PER_USER_VALUES.type(), "picks"), 1L, Long::sum);
            figures.merge(new CounterRef(values, PER_USER_VALUES.type(), "status:" + pick.status()), 1L, Long::sum);
            figures.merge(new CounterRef(values, PER_USER_VALUES.type(), "item:" + pick.itemId()), 1L, Long::sum);
        }
        figures.values().removeIf(value -> value == 0);
        return figures;
    }

    @Test
    void countPer_readsEachValuesCount_zerosLeftOut_inOrder_andRefusesWhatWouldMisread() {
        assertThat(PER_USER_VALUES.type().counterFamilies()).containsExactly("status:", "item:");
        assertThat(PER_USER_VALUES.isFigure("status:live")).isTrue();
        assertThat(PER_USER_VALUES.isFigure("status:")).isFalse();
        assertThat(PER_USER_VALUES.isFigure("weight")).isFalse();
        UserValues read = PER_USER_VALUES.answer("u1", Map.of("picks", 5L, "status:archived", 2L, "status:live", 3L,
                "item:i2", 4L, "item:i1", 1L, "item:i3", 0L));
        assertThat(read).isEqualTo(new UserValues("u1", 5, Map.of("live", 3L, "archived", 2L),
                Map.of("i1", 1L, "i2", 4L)));
        assertThat(read.byStatus().keySet()).containsExactly("live", "archived");
        assertThat(read.byItem().keySet()).containsExactly("i1", "i2");
        assertThat(PER_USER_VALUES.answer("u9", Map.of())).isEqualTo(new UserValues("u9", 0, Map.of(), Map.of()));
        // A family of named values reads those only, and counts no other.
        assertThat(PER_USER_VALUES.answer("u1", Map.of("status:gone", 4L)).byStatus()).isEmpty();
        assertThatThrownBy(() -> PER_USER_VALUES.contribute(new Pick("u1", "i1", 1, "gone"), Contribution.builder()))
                .hasMessageContaining("not one of [live, archived]: 'gone'");
        assertThatThrownBy(() -> PER_USER_VALUES.contribute(new Pick("u1", "i1", 1, "a b"), Contribution.builder()))
                .hasMessageContaining("per status: of the entity is not one of [live, archived]: 'a b'");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserValues.class).countPer(UserValues::byStatus,
                Pick::status, "Status")).hasMessageContaining("camelCase name and ':'");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserValues.class).groupBy(UserValues::userId,
                Pick::userId).count(UserValues::picks).countPer(UserValues::byStatus, Pick::status, "by:")
                .countPer(UserValues::byItem, Pick::itemId, "by:").build()).hasMessageContaining("by: is already");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, UserValues.class).countPer(UserValues::byStatus,
                Pick::status, "status:").countPer(UserValues::byStatus, Pick::itemId, "item:"))
                .hasMessageContaining("byStatus is already a figure");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, ItemPicks.class).countPer(viewOfMap(ItemPicks::itemId),
                Pick::status, "status:")).hasMessageContaining("a Map<String, Long>, not String");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Component<ItemPicks, Map<String, Long>> viewOfMap(Component<ItemPicks, String> text) {
        return (Component) text;
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
        // The view that can count it still does (each view is a part of its own): the user's pick.
        assertThat(changes.counterDeltas().keySet()).extracting(CounterRef::type).containsOnly(PER_USER.type());
        // Filtered out, its group is never asked for.
        PER_ITEM.contribute(new Pick("u1", "", 1, "archived"), into);
        assertThat(into.build().counters()).isEmpty();
    }
}
