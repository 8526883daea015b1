package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The contract's shapes are records whose declaration gives the JSON's field order: Jackson writes a record's components
 * in their declared order, not alphabetically, and {@code @JsonPropertyOrder} overrides it where a shape needs another.
 */
class JsonTest {
    record Declared(String userId, String itemId, long zeta, String alpha, Instant at) {
    }

    @JsonPropertyOrder({"alpha", "userId"})
    record Ordered(String userId, String alpha) {
    }

    @Test
    void aRecordsComponents_inDeclaredOrder_unlessItsAnnotationSaysOtherwise() {
        assertThat(Json.tree(new Declared("u", "i", 3, "a", Instant.parse("2026-01-02T03:04:05Z"))).toString())
                .isEqualTo("{\"userId\":\"u\",\"itemId\":\"i\",\"zeta\":3,\"alpha\":\"a\","
                        + "\"at\":\"2026-01-02T03:04:05.000Z\"}");
        assertThat(Json.tree(new Ordered("u", "a")).toString()).isEqualTo("{\"alpha\":\"a\",\"userId\":\"u\"}");
    }

    @Test
    void aBodyThatIsNotOneJsonDocument_isABadRequestInTheContractsWords_neverTheParsers() {
        String deep = "{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}";
        java.util.Map<String, String> expected = java.util.Map.of(
                deep, "request body nests objects and arrays deeper than 32 levels",
                "{\"a\":1,\"a\":2}", "request body names the field 'a' twice",
                "{\"a\":1} {\"b\":2}", "request body holds more than one JSON value",
                "{\"a\":\n  tru}", "request body is not valid JSON at line 2, column");
        expected.forEach((body, message) -> org.assertj.core.api.Assertions.assertThatThrownBy(() -> Json.parseObject(body))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
                    assertThat(e.getMessage()).startsWith(message).doesNotContain("StreamReadConstraints")
                            .doesNotContain("jackson").doesNotContain("Unrecognized token").doesNotContain("`");
                }));
    }
}
