package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextTest {
    @ParameterizedTest
    @ValueSource(strings = {
            "ff",             // never in UTF-8
            "80",             // a continuation byte without a lead
            "c0ae",           // overlong '.'
            "e080af",         // overlong '/'
            "f0808080",       // overlong NUL in four bytes
            "eda080",         // an encoded high surrogate (CESU-8)
            "edb080",         // an encoded low surrogate
            "e282",           // truncated euro sign
            "f4908080",       // above U+10FFFF
            "61c3"})          // truncated at the end
    void decodeUtf8_refusesWhatIsNotUtf8_neverReplacing(String hex) {
        assertThatThrownBy(() -> Text.decodeUtf8(HexFormat.of().parseHex(hex)))
                .isInstanceOf(CharacterCodingException.class);
    }

    @Test
    void decodeUtf8_decodesUtf8() throws CharacterCodingException {
        String text = "caf\u00e9 \u20ac \uD83D\uDE00 \uFFFF";
        assertThat(Text.decodeUtf8(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(text);
    }

    @Test
    void isValidUnicode_findsLoneSurrogates() {
        assertThat(Text.isValidUnicode("a\uD83D\uDE00b")).isTrue();
        assertThat(Text.isValidUnicode("")).isTrue();
        assertThat(Text.isValidUnicode("a\uD800")).isFalse();
        assertThat(Text.isValidUnicode("\uDC00a")).isFalse();
        assertThat(Text.isValidUnicode("\uDE00\uD83D")).isFalse();
        assertThat(Text.isValidUnicode("\uD83D\uD83D\uDE00")).isFalse();
    }

    @Test
    void problem_oneLine_refusesEveryControlCharacterAndTheReplacementCharacter() {
        assertThat(Text.problem("Ada Lovelace \u00e9\u20ac\uD83D\uDE00", Text.Lines.SINGLE)).isNull();
        for (char c = 0; c < 0x20; c++) {
            assertThat(Text.problem("a" + c, Text.Lines.SINGLE)).as("U+%04X", (int) c).contains("control");
        }
        for (char c = 0x7F; c <= 0x9F; c++) {
            assertThat(Text.problem("a" + c, Text.Lines.SINGLE)).as("U+%04X", (int) c).contains("control");
        }
        assertThat(Text.problem("a\uFFFD", Text.Lines.SINGLE)).contains("U+FFFD");
        assertThat(Text.problem("a\uD800", Text.Lines.SINGLE)).contains("lone surrogate U+D800");
    }

    @Test
    void problem_lines_allowsTabLineFeedAndCarriageReturnOnly() {
        assertThat(Text.problem("one\r\ntwo\tthree\n", Text.Lines.ALLOWED)).isNull();
        assertThat(Text.problem("a\u0000", Text.Lines.ALLOWED)).contains("U+0000");
        assertThat(Text.problem("a\u000B", Text.Lines.ALLOWED)).contains("U+000B");
        assertThat(Text.problem("a\u0085", Text.Lines.ALLOWED)).contains("U+0085");
        assertThat(Text.problem("a\uFFFD", Text.Lines.ALLOWED)).contains("U+FFFD");
    }

    @Test
    void percentDecode_decodesUtf8Escapes_plusStaysAPlus() {
        assertThat(Text.percentDecode("caf%C3%A9%20x+y")).isEqualTo("caf\u00e9 x+y");
        assertThat(Text.percentDecode("%f0%9f%98%80")).isEqualTo("\uD83D\uDE00");
        assertThat(Text.percentDecode("plain")).isEqualTo("plain");
        assertThat(Text.percentDecode("")).isEmpty();
        // Characters that arrive decoded already (API Gateway may decode) are taken as they are.
        assertThat(Text.percentDecode("caf\u00e9%21")).isEqualTo("caf\u00e9!");
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%2", "%zz", "a%g0", "%\u0663\u0663", "%\uFF41\uFF41", "%FF", "%C0%AE", "%ED%A0%80",
            "%E2%82", "%00", "a%0Ab", "%7F", "%C2%85", "%EF%BF%BD", "a\u0000", "\uD800", "\uD800%41", "%41\uDC00"})
    void percentDecode_refusesBadEscapesBytesThatAreNotUtf8AndControlCharacters(String encoded) {
        assertThatThrownBy(() -> Text.percentDecode(encoded)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("[\\x20-\\x7E]+");
    }
}
