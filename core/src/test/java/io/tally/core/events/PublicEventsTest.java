package io.tally.core.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.http.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a public feed shows of an event: public kinds only, each without its withheld fields. */
class PublicEventsTest {
    record Said(String eventId, String noteId, String authorId, String text) {
    }

    private static final EventType SAID = EventType.publicEvent("Said", Said.class, "authorId");
    private static final EventType WHISPERED = EventType.of("Whispered", Said.class);
    private static final PublicEvents PUBLIC = PublicEvents.of(List.of(SAID, WHISPERED));

    @Test
    void aPublicKind_showsItsFieldsButTheWithheld_andNothingElse() throws Exception {
        JsonNode detail = Json.MAPPER.readTree(
                "{\"eventId\":\"e1\",\"noteId\":\"n1\",\"authorId\":\"bob\",\"text\":\"hi\",\"extra\":1}");
        assertThat(SAID.publicFields()).containsExactly("eventId", "noteId", "text");
        assertThat(PUBLIC.publicDetail("Said", detail)).hasValueSatisfying(shown -> assertThat(shown.toString())
                .isEqualTo("{\"eventId\":\"e1\",\"noteId\":\"n1\",\"text\":\"hi\"}"));
    }

    @Test
    void aPrivateOrUnknownKind_showsNothing() throws Exception {
        JsonNode detail = Json.MAPPER.readTree("{\"eventId\":\"e1\"}");
        assertThat(PUBLIC.publicDetail("Whispered", detail)).isEmpty();
        assertThat(PUBLIC.publicDetail("Unknown", detail)).isEmpty();
        assertThat(PUBLIC.publicDetail(null, detail)).isEmpty();
        assertThat(PUBLIC.publicDetail("Said", Json.MAPPER.readTree("[1]"))).isEmpty();
        assertThat(PUBLIC.detailTypes()).containsExactly("Said");
        assertThat(WHISPERED.publicFields()).isEmpty();
    }

    @Test
    void aWithheldField_mustBeOneOfTheDetails_andOnlyOfAPublicKind() {
        assertThatThrownBy(() -> EventType.publicEvent("Said", Said.class, "author"))
                .hasMessageContaining("no field 'author'");
        assertThatThrownBy(() -> EventType.publicEvent("Said", Said.class, "eventId"))
                .hasMessageContaining("eventId");
        assertThatThrownBy(() -> new EventType("Whispered", Said.class, false, java.util.Set.of("text")))
                .hasMessageContaining("not public");
    }
}
