package io.tally.core.http;

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
 *
 * <p>A list that is not one query (a merge of several index partitions, say) signs a JSON payload of its own
 * with {@link #sign} and gets it back with {@link #verify}; the signature proves the payload is one this service
 * issued for this scope, and the caller still checks its structure.
 */
public final class Cursors {
    private static final int MAX_LENGTH = 2048;
    /**
     * Payload cursors carry a position per shard: up to 100 shards of up to about 100 characters each, some
     * 13,000 characters once encoded. Still small enough that checking one costs nothing worth attacking.
     */
    static final int MAX_PAYLOAD_LENGTH = 16 * 1024;
    private static final int TAG_BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    /** The key cursors are signed with, and the one before it (null: none), which still verifies them. */
    private record Keys(SecretKeySpec current, SecretKeySpec previous) {
    }

    private volatile Keys keys;

    public Cursors(byte[] secret) {
        this.keys = new Keys(key(secret), null);
    }

    /**
     * Signs with {@code secret} from now on (a rotated secret); cursors signed with the key before it still verify,
     * so a client paging through a list while the secret rotates is not refused. A secret equal to the current one
     * changes nothing.
     */
    public void rekey(byte[] secret) {
        SecretKeySpec next = key(secret);
        Keys now = keys;
        if (!now.current().equals(next)) {
            keys = new Keys(next, now.current());
        }
    }

    private static SecretKeySpec key(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("cursor secret must have at least 16 bytes");
        }
        return new SecretKeySpec(secret.clone(), "HmacSHA256");
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
        return signed(scope, json);
    }

    /**
     * A cursor carrying {@code payload}, good only for {@code scope}. Whoever reads it back with {@link #verify}
     * must still check the payload's structure: the signature says who wrote it, not that it fits the list.
     */
    public String sign(String scope, JsonNode payload) {
        if (payload == null || payload.isNull()) {
            throw new IllegalArgumentException("a payload cursor needs a payload; no next page is a null cursor");
        }
        String cursor = signed(scope, payload);
        if (cursor.length() > MAX_PAYLOAD_LENGTH) {
            // A bug, not a client error: verify would refuse the cursor we hand out.
            throw new IllegalStateException("cursor payload too long: " + cursor.length() + " characters");
        }
        return cursor;
    }

    /**
     * The payload of a cursor issued by {@link #sign} for {@code scope}, or null for no cursor. A forged,
     * altered, truncated or foreign cursor is a {@code bad_request} naming {@code cursor}.
     */
    public JsonNode verify(String scope, String cursor) {
        if (cursor == null) {
            return null;
        }
        return verified(scope, cursor, MAX_PAYLOAD_LENGTH);
    }

    /**
     * Runs a query that starts after a cursor's key ({@link #decode}): a key DynamoDB refuses for the query (a key of
     * another partition, in a cursor signed with a key that leaked, say) is a {@code bad_request} naming
     * {@code cursor}, not a server error. Without a start key, the query's errors are its own.
     */
    public static <T> T resuming(Map<String, AttributeValue> start, java.util.function.Supplier<T> query) {
        try {
            return query.get();
        } catch (software.amazon.awssdk.services.dynamodb.model.DynamoDbException e) {
            if (start != null && e.awsErrorDetails() != null
                    && "ValidationException".equals(e.awsErrorDetails().errorCode())) {
                throw invalidCursor();
            }
            throw e;
        }
    }

    /** The error for a cursor that does not fit the list, for callers that check a payload's structure. */
    public static ApiException invalidCursor() {
        return ApiException.badRequest("cursor is not valid for this list", "cursor");
    }

    /**
     * The exclusive start key a cursor stands for, or null for no cursor. The key must consist of exactly the
     * {@code attributes} of the query's index.
     */
    public Map<String, AttributeValue> decode(String scope, String cursor, Set<String> attributes) {
        if (cursor == null) {
            return null;
        }
        JsonNode node = verified(scope, cursor, MAX_LENGTH);
        if (!node.isObject() || node.size() != attributes.size()) {
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

    private String signed(String scope, JsonNode json) {
        String payload = ENCODER.encodeToString(Json.write(json).getBytes(StandardCharsets.UTF_8));
        return payload + "." + ENCODER.encodeToString(tag(keys.current(), scope, payload));
    }

    /** The JSON a cursor carries, after checking its form and its signature over {@code scope}. */
    private JsonNode verified(String scope, String cursor, int maxLength) {
        if (cursor.isEmpty() || cursor.length() > maxLength) {
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
        Keys known = keys;
        if (!MessageDigest.isEqual(tag, tag(known.current(), scope, payload))
                && (known.previous() == null || !MessageDigest.isEqual(tag, tag(known.previous(), scope, payload)))) {
            throw invalid();
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw invalid();
        }
        if (node == null || node.isMissingNode()) {
            throw invalid();
        }
        return node;
    }

    private static byte[] tag(SecretKeySpec key, String scope, String payload) {
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
        return invalidCursor();
    }
}
