package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CursorsTest {
    private static final Set<String> KEY = Set.of("pk", "sk");
    private final Cursors cursors = new Cursors("0123456789abcdef-test".getBytes(StandardCharsets.UTF_8));
    private final Map<String, AttributeValue> lastKey =
            Map.of("pk", AttributeValue.fromS("USER#u1"), "sk", AttributeValue.fromS("POST#p1#2026"));

    @Test
    void encode_thenDecode_returnsTheKey() {
        String cursor = cursors.encode("posts:u1", lastKey);
        assertThat(cursor).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
        assertThat(cursors.decode("posts:u1", cursor, KEY)).isEqualTo(lastKey);
    }

    @Test
    void numbers_survive() {
        Map<String, AttributeValue> key = Map.of("selector", AttributeValue.fromS("global-cycle:5"), "data", AttributeValue.fromN("70"));
        assertThat(cursors.decode("s", cursors.encode("s", key), Set.of("selector", "data"))).isEqualTo(key);
    }

    @Test
    void noMorePages_encodesNull() {
        assertThat(cursors.encode("posts:u1", null)).isNull();
        assertThat(cursors.encode("posts:u1", Map.of())).isNull();
        assertThat(cursors.decode("posts:u1", null, KEY)).isNull();
    }

    @Test
    void cursorOfAnotherQuery_isBadRequest() {
        String cursor = cursors.encode("posts:u1", lastKey);
        assertInvalid(() -> cursors.decode("posts:u2", cursor, KEY));
    }

    @Test
    void cursorSignedWithAnotherSecret_isBadRequest() {
        String cursor = new Cursors("another-secret-of-16-bytes".getBytes(StandardCharsets.UTF_8)).encode("posts:u1", lastKey);
        assertInvalid(() -> cursors.decode("posts:u1", cursor, KEY));
    }

    @Test
    void rotatedSecret_signsNewCursors_theOneBeforeStillVerifies_olderOnesDoNot() {
        String first = cursors.encode("posts:u1", lastKey);
        cursors.rekey("second-secret-0123456789".getBytes(StandardCharsets.UTF_8));
        String second = cursors.encode("posts:u1", lastKey);

        assertThat(second).isNotEqualTo(first);
        assertThat(cursors.decode("posts:u1", first, KEY)).isEqualTo(lastKey);
        assertThat(cursors.decode("posts:u1", second, KEY)).isEqualTo(lastKey);
        // The same secret again changes nothing: the first key still verifies.
        cursors.rekey("second-secret-0123456789".getBytes(StandardCharsets.UTF_8));
        assertThat(cursors.decode("posts:u1", first, KEY)).isEqualTo(lastKey);
        cursors.rekey("third-secret-0123456789".getBytes(StandardCharsets.UTF_8));
        assertInvalid(() -> cursors.decode("posts:u1", first, KEY));
        assertThat(cursors.decode("posts:u1", second, KEY)).isEqualTo(lastKey);
        assertThatThrownBy(() -> cursors.rekey(new byte[8])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void forgedPayloadWithOldSignature_isBadRequest() {
        String cursor = cursors.encode("posts:u1", lastKey);
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"pk\":{\"S\":\"USER#u2\"},\"sk\":{\"S\":\"x\"}}".getBytes(StandardCharsets.UTF_8));
        assertInvalid(() -> cursors.decode("posts:u1", forged + cursor.substring(cursor.indexOf('.')), KEY));
    }

    @Test
    void everySingleCharacterChange_isDetected() {
        String cursor = cursors.encode("posts:u1", lastKey);
        for (int i = 0; i < cursor.length(); i++) {
            char replacement = cursor.charAt(i) == 'A' ? 'B' : 'A';
            String corrupted = cursor.substring(0, i) + replacement + cursor.substring(i + 1);
            assertInvalid(() -> cursors.decode("posts:u1", corrupted, KEY));
        }
    }

    @Test
    void validlySignedKeyWithOtherAttributes_isBadRequest() {
        String cursor = cursors.encode("posts:u1", lastKey);
        assertInvalid(() -> cursors.decode("posts:u1", cursor, Set.of("pk", "sk", "postedAt")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "abc", "abc.", ".abc", "a.b.c", "!!!.???", "eyJ9.AAAA"})
    void garbage_isBadRequest(String cursor) {
        assertInvalid(() -> cursors.decode("posts:u1", cursor, KEY));
    }

    @Test
    void overlongCursor_isBadRequest() {
        assertInvalid(() -> cursors.decode("posts:u1", "a".repeat(5000) + ".b", KEY));
    }

    @Test
    void shortSecret_isRefused() {
        assertThatThrownBy(() -> new Cursors(new byte[4])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sign_thenVerify_returnsThePayload() throws Exception {
        var payload = Json.MAPPER.readTree("[\"start\",[\"2026-11-22T10:00:00.123Z#p1\",\"p1\"],\"done\"]");
        String cursor = cursors.sign("status:created", payload);
        assertThat(cursor).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
        assertThat(cursors.verify("status:created", cursor)).isEqualTo(payload);
        assertThat(cursors.verify("status:created", null)).isNull();
    }

    @Test
    void verify_payloadCursorOfAnotherScope_isBadRequest() {
        String cursor = cursors.sign("status:created", Json.MAPPER.createArrayNode().add("start"));
        assertInvalid(() -> cursors.verify("status:updated", cursor));
    }

    @Test
    void verify_everySingleCharacterChange_isDetected() {
        String cursor = cursors.sign("s", Json.MAPPER.createArrayNode().add("start").add("done"));
        for (int i = 0; i < cursor.length(); i++) {
            char replacement = cursor.charAt(i) == 'A' ? 'B' : 'A';
            String corrupted = cursor.substring(0, i) + replacement + cursor.substring(i + 1);
            assertInvalid(() -> cursors.verify("s", corrupted));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "abc", "abc.", ".abc", "a.b.c", "!!!.???", "eyJ9.AAAA"})
    void verify_garbage_isBadRequest(String cursor) {
        assertInvalid(() -> cursors.verify("s", cursor));
    }

    @Test
    void verify_overlongCursor_isBadRequest() {
        assertInvalid(() -> cursors.verify("s", "a".repeat(Cursors.MAX_PAYLOAD_LENGTH) + ".b"));
    }

    @Test
    void sign_payloadTooLongToVerify_isRefused() {
        var payload = Json.MAPPER.createArrayNode().add("x".repeat(Cursors.MAX_PAYLOAD_LENGTH));
        assertThatThrownBy(() -> cursors.sign("s", payload)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sign_hundredShardsOfLongestPositions_fitsTheLimit() {
        // A merged list's cursor at its largest: 100 shards, each after a post with a 64-character id.
        var payload = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 100; i++) {
            payload.addArray().add("2026-11-22T10:00:00.123Z").add("p".repeat(64));
        }
        String cursor = cursors.sign("s", payload);
        assertThat(cursors.verify("s", cursor)).isEqualTo(payload);
    }

    @Test
    void decode_payloadCursor_isBadRequestForAKeyList() {
        String cursor = cursors.sign("posts:u1", Json.MAPPER.createArrayNode().add("start"));
        assertInvalid(() -> cursors.decode("posts:u1", cursor, KEY));
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
            assertThat(e.field()).isEqualTo("cursor");
        });
    }
}
