package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Key patterns that make their keys, and the schemas keyed by them. */
class KeyTemplateTest {
    private static final EntityType SHELF = EntityType.base("TemplateShelf");

    record Shelf(String userId, String shelfId, long books, Instant builtAt) {
    }

    @Test
    void key_fillsEachPlaceholderWithTheValueOfItsName_inBothHalves() {
        KeyTemplate template = KeyTemplate.of("USER#<userId> / SHELF#<shelfId>#<userId>");
        assertThat(template.placeholders()).containsExactly("userId", "shelfId");
        assertThat(template.key(Map.of("userId", "u1", "shelfId", "s1")::get))
                .isEqualTo(new Key("USER#u1", "SHELF#s1#u1"));
        assertThatThrownBy(() -> template.key(Map.of("userId", "u1")::get))
                .hasMessageContaining("needs a value for shelfId");
    }

    @Test
    void spread_placesByAnotherNamesHash_theSameSlotOnEveryJvm() {
        KeyTemplate template = KeyTemplate.of("SHELVES#<shelfId>#<k> / USER#<userId>").spread("k", 10, "userId");
        assertThat(template.names()).containsExactly("shelfId", "userId");
        for (String user : new String[] {"u1", "alice", "user-8790", ""}) {
            String slot = Integer.toString(Math.floorMod(user.hashCode(), 10));
            assertThat(template.key(Map.of("shelfId", "s1", "userId", user)::get))
                    .isEqualTo(new Key("SHELVES#s1#" + slot, "USER#" + user));
        }
        // A string's hash is the language's: "alice" falls in slot 0 of 10 wherever it runs.
        assertThat(template.key(Map.of("shelfId", "s", "userId", "alice")::get).pk()).isEqualTo("SHELVES#s#0");
        assertThatThrownBy(() -> template.spread("j", 10, "userId")).hasMessageContaining("no placeholder <j>");
        assertThatThrownBy(() -> template.spread("k", 0, "userId")).hasMessageContaining("at least one slot");
        assertThatThrownBy(() -> template.spread("k", 10, "k")).hasMessageContaining("another name");
    }

    @Test
    void of_refusesWhatIsNotAKeyPattern() {
        assertThatThrownBy(() -> KeyTemplate.of("USER#<userId>")).hasMessageContaining("'<partition key> / <sort key>'");
        assertThatThrownBy(() -> KeyTemplate.of("USER#<> / X")).hasMessageContaining("empty or unclosed");
        assertThatThrownBy(() -> KeyTemplate.of("USER#<userId / X")).hasMessageContaining("empty or unclosed");
        assertThatThrownBy(() -> KeyTemplate.of(" / X")).hasMessageContaining("'<partition key> / <sort key>'");
    }

    @Test
    void aSchemaKeyedByAPattern_keysItsRecords_namesTheirSubject_andRefusesAPlaceholderItHasNoComponentFor() {
        ItemSchema<Shelf> schema = ItemSchema.keyed(Shelf.class, SHELF, "SHELF#<shelfId> / USER#<userId>").build();
        Shelf shelf = new Shelf("u1", "s1", 3, Instant.parse("2026-01-02T03:04:05Z"));
        assertThat(schema.key(shelf)).isEqualTo(new Key("SHELF#s1", "USER#u1"));
        assertThat(schema.toItem(shelf).get("pk").s()).isEqualTo("SHELF#s1");
        // The record's order, not the pattern's.
        assertThat(schema.subject(shelf)).isEqualTo("u1/s1");
        assertThat(schema.keyTemplate().orElseThrow().pattern()).isEqualTo("SHELF#<shelfId> / USER#<userId>");
        assertThatThrownBy(() -> ItemSchema.keyed(Shelf.class, SHELF, "SHELF#<id> / #").build())
                .hasMessageContaining("Shelf has no component 'id' for its key 'SHELF#<id> / #'");
        ItemSchema<Shelf> byFunction = ItemSchema.of(Shelf.class, SHELF, s -> new Key("S#" + s.shelfId(), "#"))
                .build();
        assertThat(byFunction.keyTemplate()).isEmpty();
        assertThatThrownBy(() -> byFunction.subject(shelf)).hasMessageContaining("not keyed by a pattern");
        assertThatThrownBy(() -> ItemSchema.of(Shelf.class, SHELF, s -> null).spread("k", 2, "userId"))
                .hasMessageContaining("only a schema keyed by a pattern");
    }
}
