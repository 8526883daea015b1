package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BodyTest {
    private static final Set<String> FIELDS = Set.of("name", "score", "id", "flag", "progress", "text");

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"name\":}", "[]", "42", "\"text\"", "null", "{\"name\":\"a\",\"name\":\"b\"}", "{} {}"})
    void unreadableOrNonObjectBody_isBadRequest(String body) {
        assertError(() -> Body.parse(body, FIELDS), ErrorCode.BAD_REQUEST, null);
    }

    @Test
    void nullBody_isBadRequest() {
        assertError(() -> Body.parse(null, FIELDS), ErrorCode.BAD_REQUEST, null);
    }

    @Test
    void unknownField_isValidationFailedNamingIt() {
        assertError(() -> Body.parse("{\"name\":\"a\",\"nickname\":\"b\"}", FIELDS), ErrorCode.VALIDATION_FAILED, "nickname");
    }

    @Test
    void strings_areCheckedForTypeLengthAndBlankness() {
        assertThat(Body.parse("{\"name\":\"Ada\"}", FIELDS).requiredString("name", 1, 3)).isEqualTo("Ada");
        assertError(() -> Body.parse("{\"name\":\"Adam\"}", FIELDS).requiredString("name", 1, 3), ErrorCode.VALIDATION_FAILED, "name");
        assertError(() -> Body.parse("{\"name\":\"\"}", FIELDS).requiredString("name", 1, 3), ErrorCode.VALIDATION_FAILED, "name");
        assertError(() -> Body.parse("{\"name\":\"  \"}", FIELDS).requiredString("name", 1, 3), ErrorCode.VALIDATION_FAILED, "name");
        assertError(() -> Body.parse("{\"name\":5}", FIELDS).requiredString("name", 1, 3), ErrorCode.VALIDATION_FAILED, "name");
        assertError(() -> Body.parse("{}", FIELDS).requiredString("name", 1, 3), ErrorCode.VALIDATION_FAILED, "name");
        assertThat(Body.parse("{\"name\":null}", FIELDS).optionalString("name", 1, 3)).isNull();
    }

    @Test
    void length_countsCharactersNotUtf16Units() {
        String twoEmoji = "\uD83D\uDE00\uD83D\uDE00";
        assertThat(Body.parse("{\"name\":\"" + twoEmoji + "\"}", FIELDS).requiredString("name", 1, 2)).isEqualTo(twoEmoji);
    }

    @Test
    void wholeNumbers_areCheckedForTypeFractionAndRange() {
        assertThat(Body.parse("{\"score\":70}", FIELDS).requiredLong("score", 0, 1_000_000_000)).isEqualTo(70);
        assertThat(Body.parse("{\"score\":70.0}", FIELDS).requiredLong("score", 0, 1_000_000_000)).isEqualTo(70);
        assertThat(Body.parse("{\"score\":1000000000}", FIELDS).requiredLong("score", 0, 1_000_000_000)).isEqualTo(1_000_000_000);
        for (String bad : new String[] {"70.5", "-1", "1000000001", "\"70\"", "true", "1e400", "99999999999999999999999"}) {
            assertError(() -> Body.parse("{\"score\":" + bad + "}", FIELDS).requiredLong("score", 0, 1_000_000_000),
                    ErrorCode.VALIDATION_FAILED, "score");
        }
    }

    @Test
    void decimalsAndBooleans_areChecked() {
        assertThat(Body.parse("{\"progress\":0.87}", FIELDS).optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE))
                .isEqualByComparingTo("0.87");
        assertError(() -> Body.parse("{\"progress\":1.5}", FIELDS).optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE),
                ErrorCode.VALIDATION_FAILED, "progress");
        assertThat(Body.parse("{\"flag\":true}", FIELDS).optionalBoolean("flag")).isTrue();
        assertError(() -> Body.parse("{\"flag\":\"yes\"}", FIELDS).optionalBoolean("flag"), ErrorCode.VALIDATION_FAILED, "flag");
    }

    @Test
    void ids_mustMatchTheIdentifierRule() {
        assertThat(Body.parse("{\"id\":\"user-8790\"}", FIELDS).optionalId("id")).isEqualTo("user-8790");
        assertError(() -> Body.parse("{\"id\":\"a#b\"}", FIELDS).optionalId("id"), ErrorCode.VALIDATION_FAILED, "id");
        assertError(() -> Body.parse("{\"id\":12}", FIELDS).optionalId("id"), ErrorCode.VALIDATION_FAILED, "id");
        assertError(() -> Body.parse("{}", FIELDS).requiredId("id"), ErrorCode.VALIDATION_FAILED, "id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e-131", "-1e-131", "1e-400", "0.123456789012345678901234567890123456789", "1e126",
            "-1e126", "1e400", "123456789012345678901234567890123456789"})
    void decimals_thatDynamoDbCannotHoldExactly_areValidationFailed(String number) {
        BigDecimal huge = new BigDecimal("1e200");
        assertError(() -> Body.parse("{\"progress\":" + number + "}", FIELDS).optionalDecimal("progress", huge.negate(), huge),
                ErrorCode.VALIDATION_FAILED, "progress");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0", "0.0", "0e-400", "1e-130", "-1e-130", "9.9999999999999999999999999999999999999e125",
            "0.12345678901234567890123456789012345678", "0.1234567890123456789012345678901234567800000",
            "12345678901234567890123456789012345678", "1.5e3"})
    void decimals_thatDynamoDbHoldsExactly_areTheSameNumber(String number) {
        BigDecimal huge = new BigDecimal("1e200");
        assertThat(Body.parse("{\"progress\":" + number + "}", FIELDS).optionalDecimal("progress", huge.negate(), huge))
                .isEqualByComparingTo(number);
    }

    @Test
    void decimals_withMoreDecimalsThanTheFieldAllows_areValidationFailed() {
        assertThat(Body.parse("{\"progress\":0.123456789012345}", FIELDS)
                .optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE, 15)).isEqualByComparingTo("0.123456789012345");
        assertThat(Body.parse("{\"progress\":0.5000000000000000000000}", FIELDS)
                .optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE, 15)).isEqualByComparingTo("0.5");
        for (String bad : new String[] {"0.1234567890123456", "1e-16", "1e-131"}) {
            assertError(() -> Body.parse("{\"progress\":" + bad + "}", FIELDS)
                    .optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE, 15), ErrorCode.VALIDATION_FAILED, "progress");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e2147483648", "1e-2147483649", "1e99999999999", "0.1e-2147483647", "-1E+9999999999"})
    void numbersNoBigDecimalCanHold_areValidationFailedNamingTheField_notAnException(String number) {
        assertError(() -> Body.parse("{\"score\":" + number + "}", FIELDS), ErrorCode.VALIDATION_FAILED, "score");
        assertError(() -> Body.parse("{\"score\":[" + number + "]}", FIELDS), ErrorCode.BAD_REQUEST, null);
    }

    @Test
    void wholeNumbers_farOutOfRange_areValidationFailed() {
        for (String bad : new String[] {"1e-131", "1e-999999999", "1e999999999", "-1e999999999"}) {
            assertError(() -> Body.parse("{\"score\":" + bad + "}", FIELDS).requiredLong("score", 0, 1_000_000_000),
                    ErrorCode.VALIDATION_FAILED, "score");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"name\":\"\\ud800\"}", "{\"name\":\"a\\udc00b\"}", "{\"name\":\"\\ude00\\ud83d\"}",
            "{\"name\":[\"\\ud800\"]}", "{\"name\":{\"x\":\"\\ud800\"}}", "{\"name\":{\"\\ud800\":1}}"})
    void loneSurrogateEscape_anywhereInAValue_isInvalidRequestNamingTheField(String body) {
        assertError(() -> Body.parse(body, FIELDS), ErrorCode.INVALID_REQUEST, "name");
    }

    @Test
    void loneSurrogate_inAFieldNameOrInTheBodyText_isInvalidRequest() {
        assertError(() -> Body.parse("{\"\\ud800\":1}", FIELDS), ErrorCode.INVALID_REQUEST, null);
        assertError(() -> Body.parse("{\"name\":\"\uD800\"}", FIELDS), ErrorCode.INVALID_REQUEST, null);
    }

    @Test
    void pairedSurrogateEscape_isACharacter() {
        assertThat(Body.parse("{\"name\":\"\\ud83d\\ude00\"}", FIELDS).requiredString("name", 1, 1))
                .isEqualTo("\uD83D\uDE00");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\\u0000", "a\\u0000b", "\\u0001", "\\t", "\\n", "\\r", "\\u001f", "\\u007f", "\\u0085",
            "\\u009f", "\\ufffd", "\uFFFD"})
    void oneLineString_withAControlOrReplacementCharacter_isValidationFailed(String escaped) {
        assertError(() -> Body.parse("{\"name\":\"A" + escaped + "\"}", FIELDS).requiredString("name", 1, 100),
                ErrorCode.VALIDATION_FAILED, "name");
    }

    @Test
    void multiline_allowsTabLineFeedAndCarriageReturn_nothingElse() {
        assertThat(Body.parse("{\"text\":\"one\\r\\ntwo\\tthree\"}", FIELDS).requiredMultiline("text", 1, 100))
                .isEqualTo("one\r\ntwo\tthree");
        for (String bad : new String[] {"\\u0000", "\\u000b", "\\u000c", "\\u001b", "\\u007f", "\\u0085", "\\ufffd"}) {
            assertError(() -> Body.parse("{\"text\":\"a" + bad + "b\"}", FIELDS).requiredMultiline("text", 1, 100),
                    ErrorCode.VALIDATION_FAILED, "text");
        }
        assertError(() -> Body.parse("{\"text\":\"\\n\\t\"}", FIELDS).requiredMultiline("text", 1, 100),
                ErrorCode.VALIDATION_FAILED, "text");
    }

    @Test
    void deeplyNestedJson_isBadRequestNotAStackOverflow() {
        String deep = "{\"name\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertError(() -> Body.parse(deep, FIELDS), ErrorCode.BAD_REQUEST, null);
    }

    private static void assertError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code, String field) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.field()).isEqualTo(field);
        });
    }

    @Test
    void optionalLine_isOneLineOfAtMostSoManyCodePoints_emptyBlankAndTabAllowed() {
        Set<String> note = Set.of("note");
        assertThat(Body.parse("{}", note).optionalLine("note", 5)).isNull();
        assertThat(Body.parse("{\"note\":null}", note).optionalLine("note", 5)).isNull();
        assertThat(Body.parse("{\"note\":\"\"}", note).optionalLine("note", 5)).isEmpty();
        assertThat(Body.parse("{\"note\":\"  \"}", note).optionalLine("note", 5)).isEqualTo("  ");
        assertThat(Body.parse("{\"note\":\"a\\tb\"}", note).optionalLine("note", 5)).isEqualTo("a\tb");
        // Five code points, two of them outside the BMP (two chars each).
        assertThat(Body.parse("{\"note\":\"\ud83d\udcd6\ud83d\udcd6abc\"}", note).optionalLine("note", 5))
                .hasSize(7);
        for (String bad : new String[] {"\"abcdef\"", "\"a\\nb\"", "\"a\\rb\"", "\"a\\u0000\"", "5", "[]",
                "\"\\ud800\""}) {
            assertThatThrownBy(() -> Body.parse("{\"note\":" + bad + "}", note).optionalLine("note", 5)).as(bad)
                    .isInstanceOfSatisfying(ApiException.class,
                            e -> assertThat(e.code()).isIn(ErrorCode.VALIDATION_FAILED, ErrorCode.INVALID_REQUEST));
        }
    }

    @Test
    void parseOptional_noBodyIsAnEmptyObject_anyOtherBodyParsesAsUsual() {
        Set<String> note = Set.of("note");
        assertThat(Body.parseOptional(null, note).has("note")).isFalse();
        assertThat(Body.parseOptional("", note).has("note")).isFalse();
        assertThat(Body.parseOptional(" \n", note).has("note")).isFalse();
        assertThat(Body.parseOptional("{\"note\":\"x\"}", note).optionalLine("note", 5)).isEqualTo("x");
        assertThatThrownBy(() -> Body.parseOptional("[]", note)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> Body.parseOptional("{\"other\":1}", note)).isInstanceOf(ApiException.class);
    }
}
