package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.SharedCounter;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.users.Users;
import io.tally.core.view.CounterViewTest.Pick;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Counts in the shared items, declared as data: random changes of picks against a model of the current states (a
 * user's live picks, all picks, the archived ones), and the checks of the declaration.
 */
class SharedCountsTest {
    static final SharedCounter USER_PICKS = SharedCounter.of(Users.USER_STATS, "livePicks");
    static final SharedCounter ALL_PICKS = SharedCounter.of(Users.GLOBAL_STATS, "picks");
    static final SharedCounter ARCHIVED = SharedCounter.of(Users.GLOBAL_STATS, "archivedPicks");

    static final SharedCounts<Pick> COUNTS = SharedCounts.over(Pick.SCHEMA)
            .user(USER_PICKS, Pick::userId, pick -> pick.status().equals("live"))
            .global(ALL_PICKS)
            .global(ARCHIVED, pick -> pick.status().equals("archived"))
            .build();

    @Test
    void randomChanges_theSharedCountsEqualTheModelOfTheCurrentStates() {
        Derivation derivation = Views.derivations(List.of(COUNTS)).get(0);
        RandomChanges.check(derivation, Pick.SCHEMA, 17, 2_000, 10, random -> new Pick("u" + random.nextInt(4),
                "i" + random.nextInt(3), random.nextInt(3), random.nextInt(3) == 0 ? "archived" : "live"),
                SharedCountsTest::model);
    }

    /** From the definitions: a user's live picks in their stats; every pick and the archived ones in slot 0. */
    private static Map<CounterRef, Long> model(Iterable<Pick> picks) {
        Map<CounterRef, Long> figures = new HashMap<>();
        Key global = Users.GLOBAL_STATS.slotKey(0);
        for (Pick pick : picks) {
            if (pick.status().equals("live")) {
                figures.merge(new CounterRef(new Key("USER#" + pick.userId(), "#STATS#"), Users.USER_STATS,
                        "livePicks"), 1L, Long::sum);
            }
            figures.merge(new CounterRef(global, Users.GLOBAL_STATS, "picks"), 1L, Long::sum);
            if (pick.status().equals("archived")) {
                figures.merge(new CounterRef(global, Users.GLOBAL_STATS, "archivedPicks"), 1L, Long::sum);
            }
        }
        figures.values().removeIf(value -> value == 0);
        return figures;
    }

    @Test
    void declaration_refusesACounterOfTheOtherItem_oneCountedTwice_andNone_aUserThatIsNoIdIsAProblem() {
        assertThat(COUNTS.types()).isEmpty();
        assertThat(COUNTS.counters()).containsExactly(USER_PICKS, ALL_PICKS, ARCHIVED);
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).global(USER_PICKS))
                .hasMessageContaining("not of the global totals");
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).user(ALL_PICKS, Pick::userId))
                .hasMessageContaining("not of a user's stats");
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).global(ALL_PICKS).global(ALL_PICKS))
                .hasMessageContaining("counted twice");
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).build()).hasMessageContaining("count something");
        assertThatThrownBy(() -> COUNTS.contribute(new Pick("a#b", "i1", 1, "live"), Contribution.builder()))
                .hasMessageContaining("not a valid id: 'a#b'");
    }

    /** An item of the domain's own, one per item id, with a counter of the picks of the item. */
    static final io.tally.core.DerivedType ITEM_CARD = io.tally.core.DerivedType.named("SharedCountsItemCard")
            .key("CARD#<itemId> / #CARD#", itemId -> new Key("CARD#" + itemId, "#CARD#"))
            .counters("picks")
            .document("itemId")
            .build();

    @Test
    void onAnItemOfTheDomainsOwn_eachEntityCountsOnItsSubjectsItem() {
        SharedCounts<Pick> counts = SharedCounts.over(Pick.SCHEMA).on(ITEM_CARD, Pick::itemId, "picks")
                .global(ALL_PICKS).build();
        Derivation derivation = Views.derivations(List.of(counts)).get(0);
        RandomChanges.check(derivation, Pick.SCHEMA, 5, 1_000, 10, random -> new Pick("u" + random.nextInt(4),
                "i" + random.nextInt(3), random.nextInt(3), "live"), picks -> {
                    // From the definition: every pick counts once on its item's card and once in the totals.
                    Map<CounterRef, Long> figures = new HashMap<>();
                    for (Pick pick : picks) {
                        figures.merge(new CounterRef(new Key("CARD#" + pick.itemId(), "#CARD#"), ITEM_CARD, "picks"),
                                1L, Long::sum);
                        figures.merge(new CounterRef(Users.GLOBAL_STATS.slotKey(0), Users.GLOBAL_STATS, "picks"), 1L,
                                Long::sum);
                    }
                    return figures;
                });
        assertThat(counts.counters()).containsExactly(ALL_PICKS);
        assertThat(SharedCounts.over(Pick.SCHEMA).on(ITEM_CARD, Pick::itemId, "picks").build().counters()).isEmpty();
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).on(ITEM_CARD, Pick::itemId, "itemId"))
                .hasMessageContaining("'itemId' is no counter");
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).on(Users.GLOBAL_STATS, Pick::itemId, "picks"))
                .hasMessageContaining("no counter of an item");
        assertThatThrownBy(() -> SharedCounts.over(Pick.SCHEMA).on(ITEM_CARD, Pick::itemId, "picks")
                .on(ITEM_CARD, Pick::userId, "picks")).hasMessageContaining("counted twice");
    }
}
