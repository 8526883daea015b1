package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.Document;
import io.tally.core.derive.IntendedChanges;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Projections: an entity's entry follows its state (written, moved with its key, removed on delete or out of the
 * filter), and the entries after every change, applied in any order as records of one entity may arrive across
 * stream shards, are those of the entities' last states, as a model computes them from the states alone.
 */
class ProjectionViewTest {
    /** A note with a status; {@code version} grows with every write, a re-creation included. */
    public record Note(String noteId, String status, String title, long version, boolean hidden) {
        static final EntityType TYPE = EntityType.base("ProjectionViewNote");
        static final ItemSchema<Note> SCHEMA = ItemSchema.of(Note.class, TYPE,
                note -> new Key("NOTE#" + note.noteId(), "#NOTE#")).optional("title").build();
    }

    public record NoteCard(String noteId, String title, String statusKey) {
    }

    static final ProjectionView<Note, NoteCard> BY_STATUS = ProjectionView.over(Note.SCHEMA, NoteCard.class)
            .key("NOTES#<status> / <noteId>", note -> entry(note.status(), note.noteId()))
            .project(note -> new NoteCard(note.noteId(), note.title(), "NOTES#" + note.status()))
            .indexKeys(NoteCard::statusKey).where(note -> !note.hidden()).revision(Note::version).build();

    private static Key entry(String status, String noteId) {
        return new Key("NOTES#" + status, noteId);
    }

    @Test
    void entries_followTheEntitysLastState_whateverTheOrderItsChangesArriveIn() {
        Derivation derivation = Views.derivations(List.of(BY_STATUS)).get(0);
        for (long seed = 1; seed <= 30; seed++) {
            Random random = new Random(seed);
            Map<String, Note> current = new HashMap<>();
            Map<String, Long> versions = new HashMap<>();
            List<IntendedChanges> changes = new ArrayList<>();
            for (int step = 0; step < 80; step++) {
                String id = "n" + random.nextInt(5);
                Note before = current.get(id);
                long version = versions.merge(id, 1L, Long::sum);
                Note after = random.nextInt(5) == 0 ? null : new Note(id, List.of("draft", "live", "gone")
                        .get(random.nextInt(3)), random.nextBoolean() ? "T" + step : null, version,
                        random.nextInt(4) == 0);
                IntendedChanges change = derivation.derive("r" + step, before == null ? null
                        : Note.SCHEMA.toItem(before), after == null ? null : Note.SCHEMA.toItem(after));
                assertThat(change.problems()).isEmpty();
                changes.add(change);
                if (after == null) {
                    current.remove(id);
                } else {
                    current.put(id, after);
                }
            }
            Collections.shuffle(changes, random);
            assertThat(live(apply(changes))).as("seed %d", seed).isEqualTo(model(current.values()));
        }
    }

    @Test
    void aChangeOfKey_movesTheEntry_aDeleteOrTheFilter_removesIt_oneRevisionAbove() {
        Derivation derivation = Views.derivations(List.of(BY_STATUS)).get(0);
        Note draft = new Note("n1", "draft", "T", 3, false);
        Note live = new Note("n1", "live", "T", 4, false);

        IntendedChanges moved = derivation.derive("r1", Note.SCHEMA.toItem(draft), Note.SCHEMA.toItem(live));
        assertThat(moved.documents()).containsOnlyKeys(entry("draft", "n1"), entry("live", "n1"));
        assertThat(moved.documents().get(entry("draft", "n1"))).satisfies(removal -> {
            assertThat(removal.isRemoval()).isTrue();
            assertThat(removal.revision()).isEqualTo(7);
        });
        assertThat(moved.documents().get(entry("live", "n1")).revision()).isEqualTo(8);
        assertThat(moved.documents().get(entry("live", "n1")).values()).isEqualTo(Map.of("noteId",
                AttributeValue.fromS("n1"), "title", AttributeValue.fromS("T"), "statusKey",
                AttributeValue.fromS("NOTES#live")));

        IntendedChanges hidden = derivation.derive("r2", Note.SCHEMA.toItem(live),
                Note.SCHEMA.toItem(new Note("n1", "live", "T", 5, true)));
        assertThat(hidden.documents().get(entry("live", "n1")).isRemoval()).isTrue();
        IntendedChanges deleted = derivation.derive("r3", Note.SCHEMA.toItem(live), null);
        assertThat(deleted.documents().get(entry("live", "n1")).revision()).isEqualTo(9);
        assertThat(BY_STATUS.type().indexKeys()).containsExactly("statusKey");
        assertThat(BY_STATUS.type().document()).containsExactlyInAnyOrder("noteId", "title", "statusKey");
    }

    @Test
    void declarations_thatCannotWork_areRefusedSayingWhy() {
        assertThatThrownBy(() -> ProjectionView.over(Note.SCHEMA, NoteCard.class)
                .key("K", note -> entry(note.status(), note.noteId()))
                .project(note -> new NoteCard(note.noteId(), null, null)).build())
                .hasMessageContaining("revision");
        ProjectionView<Note, NoteCard> second = ProjectionView.over(Note.SCHEMA, NoteCard.class).named("Second")
                .key("K", note -> entry(note.status(), note.noteId()))
                .project(note -> new NoteCard(note.noteId(), null, null)).revision(Note::version).build();
        assertThatThrownBy(() -> Views.derivations(List.of(BY_STATUS, second)))
                .hasMessageContaining("one projection of ProjectionViewNote at the most");
    }

    /** A note's copy in a declared type: a counter of its own beside the document, its partition a shard of its id. */
    public record NoteCopy(String noteId, String title, long likes) {
    }

    static final io.tally.core.ShardSetting NOTE_SHARDS = new io.tally.core.ShardSetting("NOTE_SHARDS", 4, "test");
    static final io.tally.core.DerivedType COPY = io.tally.core.DerivedType.named("ProjectionViewNoteCopy")
            .key("NOTECOPY#<noteId> / #COPY#", noteId -> new Key("NOTECOPY#" + noteId, "#COPY#"))
            .counters("likes")
            .document("noteId", "title", "shardKey", "rank")
            .indexKeys("shardKey", "rank")
            .build();

    @Test
    void aDeclaredType_keepsItsCounters_andIndexKeysMadeWithTheFunctionsShardCounts() {
        ProjectionView<Note, NoteCopy> copies = ProjectionView.over(Note.SCHEMA, NoteCopy.class)
                .type(COPY, Note::noteId)
                .project(note -> new NoteCopy(note.noteId(), note.title(), 99))
                .indexKey("shardKey", (note, shards) -> note.status() + ":" + Math.floorMod(note.noteId().hashCode(),
                        shards.count(NOTE_SHARDS)))
                .indexKey("rank", (note, shards) -> note.version() * 10)
                .revision(Note::version).build();
        assertThat(copies.type()).isSameAs(COPY);
        Note note = new Note("n12", "live", "T", 3, false);
        for (int count : new int[] {1, 7, 13}) {
            Derivation derivation = Views.derivations(List.of(copies),
                    io.tally.core.ShardSettings.DEFAULTS.with(NOTE_SHARDS, count)).get(0);
            IntendedChanges created = derivation.derive("r1", null, Note.SCHEMA.toItem(note));
            Key key = new Key("NOTECOPY#n12", "#COPY#");
            assertThat(created.documents()).containsOnlyKeys(key);
            // Written from the definition: the counter is the engine's, never part of the document.
            assertThat(created.documents().get(key).values()).isEqualTo(Map.of("noteId", AttributeValue.fromS("n12"),
                    "title", AttributeValue.fromS("T"), "shardKey", AttributeValue.fromS("live:" + ("n12".hashCode()
                            % count + count) % count), "rank", AttributeValue.fromN("30")));
            assertThat(created.documents().get(key).revision()).isEqualTo(6);
        }
        assertThat(copies.read(Map.of("entityType", AttributeValue.fromS("ProjectionViewNoteCopy"), "noteId",
                AttributeValue.fromS("n1"), "likes", AttributeValue.fromN("5")))).isEqualTo(new NoteCopy("n1", null, 5));
        assertThat(copies.read(Map.of("entityType", AttributeValue.fromS("ProjectionViewNoteCopy"), "noteId",
                AttributeValue.fromS("n1")))).isEqualTo(new NoteCopy("n1", null, 0));
        assertThatThrownBy(() -> copies.read(Map.of("entityType", AttributeValue.fromS("Other"))))
                .isInstanceOf(io.tally.core.MalformedItemException.class);
    }

    @Test
    void aDeclaredType_thatSaysOtherwiseThanTheProjection_isRefused() {
        assertThatThrownBy(() -> ProjectionView.over(Note.SCHEMA, NoteCopy.class).type(COPY, Note::noteId)
                .project(note -> new NoteCopy(note.noteId(), note.title(), 0))
                .indexKey("shardKey", (note, shards) -> "s").revision(Note::version).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ProjectionViewNoteCopy declares the document");
        assertThatThrownBy(() -> ProjectionView.over(Note.SCHEMA, NoteCopy.class).type(COPY, Note::noteId)
                .indexKey("rank", (note, shards) -> 1).indexKey("rank", (note, shards) -> 2))
                .hasMessageContaining("declared twice");
        ProjectionView<Note, NoteCopy> notANumber = ProjectionView.over(Note.SCHEMA, NoteCopy.class)
                .type(COPY, Note::noteId).project(note -> new NoteCopy(note.noteId(), note.title(), 0))
                .indexKey("shardKey", (note, shards) -> "s").indexKey("rank", (note, shards) -> 1.5 > 1 ? null : 1)
                .revision(Note::version).build();
        IntendedChanges refused = Views.derivations(List.of(notANumber)).get(0).derive("r1", null,
                Note.SCHEMA.toItem(new Note("n1", "live", "T", 1, false)));
        assertThat(refused.problems()).singleElement().asString().contains("the index key rank is a string or a whole"
                + " number");
    }

    /** Documents written as the engine does: over a lower or equal revision only. */
    private static Map<Key, Document> apply(List<IntendedChanges> changes) {
        Map<Key, Document> stored = new HashMap<>();
        for (IntendedChanges change : changes) {
            change.documents().forEach((key, document) -> {
                Document old = stored.get(key);
                if (old == null || old.revision() <= document.revision()) {
                    stored.put(key, document);
                }
            });
        }
        return stored;
    }

    private static Map<Key, Map<String, AttributeValue>> live(Map<Key, Document> stored) {
        Map<Key, Map<String, AttributeValue>> live = new HashMap<>();
        stored.forEach((key, document) -> {
            if (!document.isRemoval()) {
                live.put(key, document.values());
            }
        });
        return live;
    }

    /** From the definition: each note not hidden has one entry under its status, holding its id, title and status. */
    private static Map<Key, Map<String, AttributeValue>> model(Iterable<Note> notes) {
        Map<Key, Map<String, AttributeValue>> entries = new HashMap<>();
        for (Note note : notes) {
            if (!note.hidden()) {
                Map<String, AttributeValue> values = new HashMap<>();
                values.put("noteId", AttributeValue.fromS(note.noteId()));
                values.put("statusKey", AttributeValue.fromS("NOTES#" + note.status()));
                if (note.title() != null) {
                    values.put("title", AttributeValue.fromS(note.title()));
                }
                entries.put(new Key("NOTES#" + note.status(), note.noteId()), values);
            }
        }
        return entries;
    }
}
