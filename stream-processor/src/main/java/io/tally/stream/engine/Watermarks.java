package io.tally.stream.engine;

import io.tally.core.TableSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Names of the per-shard watermark attributes of derived items: {@code wm_<token>}, where the token is a short,
 * stable id of the stream shard. A shard id is up to 65 characters; one attribute per shard that ever wrote an
 * item, so the name is kept short, and it must be a legal, stable attribute name in every JVM and every run.
 */
public final class Watermarks {
    /** Every watermark attribute starts with this prefix; no derived counter or document may. */
    public static final String PREFIX = TableSchema.WATERMARKS + "_";

    /** 10 bytes of SHA-256: 80 bits make a collision among the shards of one item vanishingly unlikely. */
    private static final int TOKEN_BYTES = 10;
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private Watermarks() {
    }

    /** The watermark attribute of a shard, e.g. {@code wm_k5sxg2lom4qgs3tf}. */
    public static String attributeName(String shardId) {
        return PREFIX + token(shardId);
    }

    public static boolean isWatermark(String attributeName) {
        return attributeName.startsWith(PREFIX);
    }

    /** The first 10 bytes of the SHA-256 of the shard id, in lowercase RFC 4648 base32 (16 characters). */
    public static String token(String shardId) {
        byte[] digest = sha256(shardId);
        StringBuilder token = new StringBuilder(16);
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < TOKEN_BYTES; i++) {
            buffer = (buffer << 8) | (digest[i] & 0xff);
            bits += 8;
            while (bits >= 5) {
                token.append(BASE32[(buffer >> (bits - 5)) & 0x1f]);
                bits -= 5;
            }
        }
        return token.toString();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
