package io.tally.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A short, stable id of a stream shard: shard ids are up to 65 characters, and the exactly-once bookkeeping names
 * shards in attribute names ({@code wm_<token>}), in the sort keys of per-shard partial items and in the keys of shard
 * cursors, which must be short, legal and the same in every JVM and every run.
 */
public final class ShardToken {
    /** 10 bytes of SHA-256: 80 bits make a collision among the shards of one stream vanishingly unlikely. */
    private static final int TOKEN_BYTES = 10;
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    /**
     * The tokens already computed: the stream function asks for its shard's token for every counter change of every
     * record, and a process sees a handful of shards. Cleared when it grows past {@link #CACHED} (a rebuild of a stream
     * with many generations of shards, say), so it stays small.
     */
    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();
    private static final int CACHED = 1024;

    private ShardToken() {
    }

    /** The first 10 bytes of the SHA-256 of the shard id, in lowercase RFC 4648 base32 (16 characters). */
    public static String of(String shardId) {
        String token = TOKENS.get(shardId);
        if (token == null) {
            if (TOKENS.size() >= CACHED) {
                TOKENS.clear();
            }
            token = compute(shardId);
            TOKENS.put(shardId, token);
        }
        return token;
    }

    private static String compute(String shardId) {
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
