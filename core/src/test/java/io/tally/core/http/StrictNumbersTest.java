package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Numbers in a query and in If-Match: ASCII digits only, no sign, no spaces, compared exactly. */
class StrictNumbersTest {
    private static ApiRequest query(String limit) {
        return new ApiRequest("GET", "/x", Map.of(), Map.of("limit", limit), Map.of(), null);
    }

    private static ApiRequest ifMatch(String value) {
        return new ApiRequest("PATCH", "/x", Map.of(), Map.of(), Map.of("if-match", value), null);
    }

    @Test
    void limit_isAsciiDigitsOnly_anythingElseIsABadRequestNamingIt() {
        assertThat(Page.limit(query("5"))).isEqualTo(5);
        assertThat(Page.limit(query("100"))).isEqualTo(100);
        assertThat(Page.limit(query("007"))).isEqualTo(7);
        // A sign, spaces, full-width and Arabic-Indic digits: Integer.parseInt takes all but the spaces.
        for (String value : new String[] {"+5", "-5", " 5", "5 ", "\uFF11", "\u0661\u0660", "1e1", "", "0x10",
                "99999999999999999999"}) {
            assertThatThrownBy(() -> Page.limit(query(value)), value).isInstanceOfSatisfying(ApiException.class,
                    e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
                        assertThat(e.field()).isEqualTo("limit");
                    });
        }
        assertThatThrownBy(() -> Page.limit(query("0"))).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> Page.limit(query("101"))).isInstanceOf(ApiException.class);
    }

    @Test
    void ifMatch_isAVersionInAsciiDigits_comparedExactly_otherTagsNeverMatch() {
        assertThat(ifMatch("\"2\"").ifMatch().version()).isEqualTo(2L);
        assertThat(ifMatch("W/\"2\"").ifMatch().version()).isEqualTo(2L);
        assertThat(ifMatch("2").ifMatch().version()).isEqualTo(2L);
        assertThat(ifMatch("*").ifMatch()).isEqualTo(IfMatch.ANY);
        for (String value : new String[] {"\"+2\"", "\" 2\"", "\"2 \"", "\"\u0662\"", "\"-2\"", "\"02x\""}) {
            assertThatThrownBy(() -> ifMatch(value).ifMatch(), value).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.PRECONDITION_FAILED));
        }
    }
}
