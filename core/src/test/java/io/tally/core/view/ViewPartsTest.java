package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.http.Access;
import io.tally.core.view.CounterViewTest.Pick;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A view fed by two entity types ({@code alsoFrom}): a user's picks counted from picks, their notes and the notes per
 * label from notes, all in one item per user; checked against a model of both types' current states.
 */
class ViewPartsTest {

    /**
     * The second entity type: a user's note, with a label. Not public, as a domain's record need not be: its schema
     * (in another package) still constructs it.
     */
    record Note(String userId, String noteId, String label) {
        static final EntityType TYPE = EntityType.base("ViewPartsNote");
        static final ItemSchema<Note> SCHEMA = ItemSchema.of(Note.class, TYPE,
                note -> new Key("USER#" + note.userId(), "NOTE#" + note.noteId())).build();
    }

    public record Activity(String userId, long picks, long notes, Map<String, Long> byLabel, long weight) {
    }

    public record Wrong(String userId, String itemId, long picks, long notes) {
    }

    static final CounterView<Pick, Activity> ACTIVITY = CounterView.over(Pick.SCHEMA, Activity.class)
            .groupBy(Activity::userId, Pick::userId).count(Activity::picks).sum(Activity::weight, Pick::weight)
            .alsoFrom(Note.SCHEMA, part -> part.groupBy(Activity::userId, Note::userId).count(Activity::notes)
                    .countPer(Activity::byLabel, Note::label, "label:").where(note -> !note.label().equals("draft"))
                    // Notes weigh one each, summed with the picks' weights.
                    .sum(Activity::weight, note -> 1L))
            .shared().read("/stats/users/{userId}/activity", Access.READ_SIDE, Existence.zeros()).build();

    @Test
    void theViewsTypeHoldsEveryPartsFigures_thePartIsAViewOfItsOwnTypeWithNoTypeOrRoute() {
        assertThat(ACTIVITY.types()).singleElement().isEqualTo(ACTIVITY.type());
        assertThat(ACTIVITY.type().counters()).containsExactly("picks", "weight", "notes");
        assertThat(ACTIVITY.type().counterFamilies()).containsExactly("label:");
        assertThat(ACTIVITY.parts()).singleElement().satisfies(part -> {
            assertThat(part.source()).isEqualTo(Note.TYPE);
            assertThat(part.types()).isEmpty();
            assertThat(part.type()).isSameAs(ACTIVITY.type());
            assertThat(part.read()).isEmpty();
        });
        assertThat(Views.expanded(List.of(ACTIVITY))).hasSize(2);
        assertThat(Views.derivations(List.of(ACTIVITY))).extracting(Derivation::entityType)
                .containsExactly(Pick.TYPE, Note.TYPE);
        assertThat(ACTIVITY.answer("u1", Map.of("picks", 2L, "notes", 3L, "label:work", 2L, "weight", 9L)))
                .isEqualTo(new Activity("u1", 2, 3, Map.of("work", 2L), 9));
    }

    /** Random changes of picks and notes, in turn: the figures of both derivations equal the model of the states. */
    @Test
    void randomChangesOfBothTypes_figuresEqualTheModelOfTheCurrentStates() {
        List<Derivation> derivations = Views.derivations(List.of(ACTIVITY));
        Derivation picks = derivations.get(0);
        Derivation notes = derivations.get(1);
        Random random = new Random(41);
        Map<String, Pick> pickStates = new HashMap<>();
        Map<String, Note> noteStates = new HashMap<>();
        Map<CounterRef, Long> figures = new HashMap<>();
        String[] labels = {"work", "home", "draft"};
        for (int step = 0; step < 2_000; step++) {
            String id = "e" + random.nextInt(8);
            IntendedChanges changes;
            if (random.nextBoolean()) {
                Pick before = pickStates.get(id);
                Pick after = random.nextInt(5) == 0 ? null : new Pick("u" + random.nextInt(3), "i" + random.nextInt(3),
                        random.nextInt(5), "live");
                changes = picks.derive("p" + step, before == null ? null : Pick.SCHEMA.toItem(before),
                        after == null ? null : Pick.SCHEMA.toItem(after));
                put(pickStates, id, after);
            } else {
                Note before = noteStates.get(id);
                Note after = random.nextInt(5) == 0 ? null : new Note("u" + random.nextInt(3), id,
                        labels[random.nextInt(labels.length)]);
                changes = notes.derive("n" + step, before == null ? null : Note.SCHEMA.toItem(before),
                        after == null ? null : Note.SCHEMA.toItem(after));
                put(noteStates, id, after);
            }
            assertThat(changes.problems()).isEmpty();
            changes.counterDeltas().forEach((counter, delta) -> figures.merge(counter, delta, Long::sum));
            figures.values().removeIf(value -> value == 0);
            assertThat(figures).as("after step %d", step).isEqualTo(model(pickStates.values(), noteStates.values()));
        }
    }

    private static <V> void put(Map<String, V> states, String id, V state) {
        if (state == null) {
            states.remove(id);
        } else {
            states.put(id, state);
        }
    }

    /** From the definitions: per user, picks and their weights; notes not drafts, one weight each, per label. */
    private static Map<CounterRef, Long> model(Iterable<Pick> picks, Iterable<Note> notes) {
        Map<CounterRef, Long> figures = new HashMap<>();
        for (Pick pick : picks) {
            Key user = new Key("ACTIVITY#" + pick.userId(), "#STATS#");
            figures.merge(new CounterRef(user, ACTIVITY.type(), "picks"), 1L, Long::sum);
            figures.merge(new CounterRef(user, ACTIVITY.type(), "weight"), pick.weight(), Long::sum);
        }
        for (Note note : notes) {
            if (!note.label().equals("draft")) {
                Key user = new Key("ACTIVITY#" + note.userId(), "#STATS#");
                figures.merge(new CounterRef(user, ACTIVITY.type(), "notes"), 1L, Long::sum);
                figures.merge(new CounterRef(user, ACTIVITY.type(), "label:" + note.label()), 1L, Long::sum);
                figures.merge(new CounterRef(user, ACTIVITY.type(), "weight"), 1L, Long::sum);
            }
        }
        figures.values().removeIf(value -> value == 0);
        return figures;
    }

    @Test
    void aViewThatCannotCountAState_isAProblemOfItsOwn_theOtherViewsOfTheTypeStillCountIt() {
        // Picks per user and item: an item id that is no id makes PER_ITEM's grouping fail, not the user's count.
        CounterView<Pick, CounterViewTest.UserPicks> perUser = CounterView.over(Pick.SCHEMA,
                        CounterViewTest.UserPicks.class).named("IsolatedUserPicks")
                .groupBy(CounterViewTest.UserPicks::userId, Pick::userId).count(CounterViewTest.UserPicks::picks)
                .build();
        Derivation derivation = Views.derivations(List.of(CounterViewTest.PER_ITEM, perUser)).get(0);
        IntendedChanges changes = derivation.derive("e1", null, Pick.SCHEMA.toItem(new Pick("u1", "a#b", 2, "live")));
        assertThat(changes.problems()).singleElement().asString().contains("not a valid id: 'a#b'");
        assertThat(changes.counterDeltas()).containsOnlyKeys(new CounterRef(new Key("ISOLATEDUSERPICKS#u1",
                "#STATS#"), perUser.type(), "picks"));
    }

    @Test
    void aPartThatWouldCountElsewhere_orDeclareTheViewsOwn_isRefused() {
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Wrong.class).groupBy(Wrong::userId, Pick::userId)
                .groupBy(Wrong::itemId, Pick::itemId).count(Wrong::picks)
                .alsoFrom(Note.SCHEMA, part -> part.groupBy(Wrong::userId, Note::userId).count(Wrong::notes)).build())
                .hasMessageContaining("a part groups by the view's fields, in its order, [userId, itemId]");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Activity.class).groupBy(Activity::userId,
                Pick::userId).count(Activity::picks).sum(Activity::weight, Pick::weight)
                .countPer(Activity::byLabel, Pick::status, "label:")
                .alsoFrom(Note.SCHEMA, part -> part.groupBy(Activity::userId, Note::userId).count(Activity::notes)
                        .shared()).build())
                .hasMessageContaining("declares what only the view does");
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Activity.class).groupBy(Activity::userId,
                Pick::userId).count(Activity::picks).sum(Activity::weight, Pick::weight)
                .countPer(Activity::byLabel, Pick::status, "label:")
                .alsoFrom(Note.SCHEMA, part -> part.groupBy(Activity::userId, Note::userId)).build())
                .hasMessageContaining("counts or sums nothing");
        // A family the view stores under one prefix, a part under another: the view would never read the part's.
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Activity.class).groupBy(Activity::userId,
                Pick::userId).count(Activity::picks).sum(Activity::weight, Pick::weight)
                .countPer(Activity::byLabel, Pick::status, "label:")
                .alsoFrom(Note.SCHEMA, part -> part.groupBy(Activity::userId, Note::userId).count(Activity::notes)
                        .countPer(Activity::byLabel, Note::label, "tag:")).build())
                .hasMessageContaining("stores byLabel as tag:");
        // Without the part, nothing fills notes.
        assertThatThrownBy(() -> CounterView.over(Pick.SCHEMA, Activity.class).groupBy(Activity::userId,
                Pick::userId).count(Activity::picks).sum(Activity::weight, Pick::weight)
                .countPer(Activity::byLabel, Pick::status, "label:").build())
                .hasMessageContaining("no figure of the view fills [notes]");
    }
}
