package io.tally.writer.http;

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

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
            assertThat(e.field()).isEqualTo("cursor");
        });
    }
}
