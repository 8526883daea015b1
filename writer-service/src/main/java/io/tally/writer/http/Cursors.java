package io.tally.writer.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Opaque pagination cursors: a DynamoDB {@code LastEvaluatedKey} as base64url JSON, signed with HMAC-SHA256
 * over the query's scope. A cursor therefore only works for the query that issued it, and a forged, truncated
 * or corrupted one is a {@code bad_request} naming {@code cursor}, never a read from an arbitrary key.
 */
public final class Cursors {
    private static final int MAX_LENGTH = 2048;
    private static final int TAG_BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;

    public Cursors(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("cursor secret must have at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /** The cursor for the page after {@code lastEvaluatedKey}, or null when there is none. */
    public String encode(String scope, Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        ObjectNode json = Json.object();
        lastEvaluatedKey.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            AttributeValue value = e.getValue();
            ObjectNode typed = json.putObject(e.getKey());
            if (value.s() != null) {
                typed.put("S", value.s());
            } else if (value.n() != null) {
                typed.put("N", value.n());
            } else {
                throw new IllegalArgumentException("key attribute '" + e.getKey() + "' is neither S nor N");
            }
        });
        String payload = ENCODER.encodeToString(Json.write(json).getBytes(StandardCharsets.UTF_8));
        return payload + "." + ENCODER.encodeToString(tag(scope, payload));
    }

    /**
     * The exclusive start key a cursor stands for, or null for no cursor. The key must consist of exactly the
     * {@code attributes} of the query's index.
     */
    public Map<String, AttributeValue> decode(String scope, String cursor, Set<String> attributes) {
        if (cursor == null) {
            return null;
        }
        if (cursor.isEmpty() || cursor.length() > MAX_LENGTH) {
            throw invalid();
        }
        int dot = cursor.indexOf('.');
        if (dot <= 0 || dot != cursor.lastIndexOf('.')) {
            throw invalid();
        }
        String payload = cursor.substring(0, dot);
        String tagText = cursor.substring(dot + 1);
        byte[] tag;
        byte[] json;
        try {
            tag = DECODER.decode(tagText);
            json = DECODER.decode(payload);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        // Base64 tolerates non-zero padding bits; insisting on the canonical text makes every altered
        // character count as a corruption.
        if (!ENCODER.encodeToString(tag).equals(tagText) || !ENCODER.encodeToString(json).equals(payload)) {
            throw invalid();
        }
        if (!MessageDigest.isEqual(tag, tag(scope, payload))) {
            throw invalid();
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw invalid();
        }
        if (node == null || !node.isObject() || node.size() != attributes.size()) {
            throw invalid();
        }
        Map<String, AttributeValue> key = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode typed = field.getValue();
            if (!attributes.contains(field.getKey()) || !typed.isObject() || typed.size() != 1) {
                throw invalid();
            }
            if (typed.path("S").isTextual()) {
                key.put(field.getKey(), AttributeValue.fromS(typed.get("S").textValue()));
            } else if (typed.path("N").isTextual()) {
                key.put(field.getKey(), AttributeValue.fromN(typed.get("N").textValue()));
            } else {
                throw invalid();
            }
        }
        return key;
    }

    private byte[] tag(String scope, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(scope.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '\n');
            return Arrays.copyOf(mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)), TAG_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static ApiException invalid() {
        return ApiException.badRequest("cursor is not valid for this list", "cursor");
    }
}
