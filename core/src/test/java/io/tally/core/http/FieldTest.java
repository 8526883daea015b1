package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A route's input contract: each field declared once, read by the rules (and messages) of its kind, required as the
 * contract says, and described by its schema.
 */
class FieldTest {
    private static final Field<String> NAME = Field.string("name", 1, 3);
    private static final Field<String> TEXT = Field.multiline("text", 1, 5);
    private static final Field<String> NOTE = Field.line("note", 4);
    private static final Field<String> ID = Field.id("id");
    private static final Field<Long> SCORE = Field.whole("score", 0, 100);
    private static final Field<BigDecimal> PROGRESS = Field.decimal("progress", BigDecimal.ZERO, BigDecimal.ONE, 2);
    private static final Field<Boolean> FLAG = Field.bool("flag");
    private static final Fields CREATE = Fields.of(ID, NAME.required(), TEXT, NOTE, SCORE, PROGRESS, FLAG);
    private static final Fields UPDATE = Fields.of(NAME, TEXT.required());

    /** The message of the 400 a read answers: the same as Body's own method for the field's kind. */
    private static String refusal(Runnable read) {
        try {
            read.run();
        } catch (ApiException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
            return e.getMessage();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void get_readsEachKindByBodysOwnRules_requiredAsTheContractDeclaresIt() {
        Body body = Body.parse("{\"id\":\"a-1\",\"name\":\"Ada\",\"text\":\"x\\ny\",\"note\":\"  \",\"score\":5.0,"
                + "\"progress\":0.50,\"flag\":true}", CREATE);
        assertThat(body.get(ID)).isEqualTo("a-1");
        assertThat(body.get(NAME)).isEqualTo("Ada");
        assertThat(body.get(TEXT)).isEqualTo("x\ny");
        assertThat(body.get(NOTE)).isEqualTo("  ");
        assertThat(body.get(SCORE)).isEqualTo(5L);
        assertThat(body.get(PROGRESS)).isEqualByComparingTo("0.5");
        assertThat(body.get(FLAG)).isTrue();

        // Optional in one contract, required in another: the same field constant, read by each contract's rule.
        Body none = Body.parse("{\"score\":1}", CREATE);
        assertThat(none.get(TEXT)).isNull();
        assertThat(refusal(() -> none.get(NAME))).isEqualTo(refusal(() -> none.requiredString("name", 1, 3)))
                .isEqualTo("'name' is required");
        Body update = Body.parse("{\"name\":\"Bo\"}", UPDATE);
        assertThat(update.get(NAME)).isEqualTo("Bo");
        assertThat(refusal(() -> update.get(TEXT))).isEqualTo("'text' is required");

        // Each kind's refusal is Body's, byte for byte.
        Body bad = Body.parse("{\"id\":\"a b\",\"name\":\"Adam\",\"text\":\" \",\"note\":\"a\\nb\",\"score\":101,"
                + "\"progress\":0.125,\"flag\":\"yes\"}", CREATE);
        assertThat(refusal(() -> bad.get(ID))).isEqualTo(refusal(() -> bad.optionalId("id")));
        assertThat(refusal(() -> bad.get(NAME))).isEqualTo(refusal(() -> bad.requiredString("name", 1, 3)));
        assertThat(refusal(() -> bad.get(TEXT))).isEqualTo(refusal(() -> bad.optionalMultiline("text", 1, 5)));
        assertThat(refusal(() -> bad.get(NOTE))).isEqualTo(refusal(() -> bad.optionalLine("note", 4)));
        assertThat(refusal(() -> bad.get(SCORE))).isEqualTo(refusal(() -> bad.requiredLong("score", 0, 100)));
        assertThat(refusal(() -> bad.get(PROGRESS)))
                .isEqualTo(refusal(() -> bad.optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE, 2)));
        assertThat(refusal(() -> bad.get(FLAG))).isEqualTo(refusal(() -> bad.optionalBoolean("flag")));
    }

    @Test
    void aContract_refusesAFieldItDoesNotList_andAHandlerCannotReadOne() {
        assertThat(refusal(() -> Body.parse("{\"score\":1,\"nickname\":\"x\"}", CREATE)))
                .isEqualTo("unknown field 'nickname'");
        Body update = Body.parse("{}", UPDATE);
        assertThatThrownBy(() -> update.get(SCORE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("score (whole, required) is not a field of the route's contract");
        // The same name with another rule is another field.
        assertThatThrownBy(() -> update.get(Field.string("name", 1, 4))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Fields.of(NAME, NAME.required())).hasMessage("the field 'name' is listed twice");
        assertThatThrownBy(() -> NOTE.required()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anOptionalBody_leftOut_isABodyWithNoneOfItsFields() {
        Fields note = Fields.of(NOTE);
        assertThat(Body.parseOptional(null, note).get(NOTE)).isNull();
        assertThat(Body.parseOptional("  ", note).get(NOTE)).isNull();
        assertThat(Body.parseOptional("{\"note\":\"hi\"}", note).get(NOTE)).isEqualTo("hi");
        assertThat(refusal(() -> Body.parseOptional("{\"other\":1}", note))).isEqualTo("unknown field 'other'");
    }

    @Test
    void schema_saysTheTypeAndRange() {
        assertThat(NAME.schema().toString()).isEqualTo("{\"type\":\"string\",\"minLength\":1,\"maxLength\":3}");
        assertThat(NOTE.schema().toString()).isEqualTo("{\"type\":\"string\",\"maxLength\":4}");
        assertThat(TEXT.schema().path("description").asText()).isEqualTo("may span lines");
        assertThat(ID.schema().toString()).isEqualTo("{\"type\":\"string\",\"pattern\":\"^[A-Za-z0-9_-]{1,64}$\"}");
        assertThat(SCORE.schema().toString())
                .isEqualTo("{\"type\":\"integer\",\"format\":\"int64\",\"minimum\":0,\"maximum\":100}");
        assertThat(PROGRESS.schema().toString()).isEqualTo("{\"type\":\"number\",\"minimum\":0,\"maximum\":1}");
        assertThat(FLAG.schema().toString()).isEqualTo("{\"type\":\"boolean\"}");
        assertThat(CREATE.list()).extracting(Field::name)
                .containsExactly("id", "name", "text", "note", "score", "progress", "flag");
        assertThat(CREATE.list()).filteredOn(Field::isRequired).extracting(Field::name)
                .isEqualTo(List.of("name", "score"));
    }

    @Test
    void aUrl_isAbsoluteHttpOrHttps_withAHost_anythingElseIsAValidationFailureNamingTheField() {
        Field<String> link = Field.url("link", 2048);
        Fields fields = Fields.of(link);
        for (String url : new String[] {"https://example.com/a?b=c#d", "http://127.0.0.1:8080/x", "HTTPS://Example.com"}) {
            assertThat(Body.parse("{\"link\":\"" + url + "\"}", fields).get(link)).isEqualTo(url);
        }
        assertThat(Body.parse("{}", fields).get(link)).isNull();
        for (String url : new String[] {"javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd",
                "//example.com/x", "/relative", "https:///no-host", "ftp://example.com", "https://exa mple.com",
                "mailto:a@example.com"}) {
            assertThatThrownBy(() -> Body.parse("{\"link\":\"" + url + "\"}", fields).get(link), url)
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
                        assertThat(e.field()).isEqualTo("link");
                        assertThat(e.getMessage()).isEqualTo("'link' must be an absolute http or https URL");
                    });
        }
        assertThat(link.schema().get("format").asText()).isEqualTo("uri");
    }
}
