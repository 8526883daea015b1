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
}
