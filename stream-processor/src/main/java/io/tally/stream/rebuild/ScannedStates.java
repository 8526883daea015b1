package io.tally.stream.rebuild;

import io.tally.core.Key;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which state the scan saw of each base item, in 16 bytes per item: a 64-bit hash of its key and a 64-bit
 * fingerprint of its attributes. After the scan, the rebuild finds that state again among the images of the item's
 * stream records (the change the scan saw, or the one after it), and takes its contribution back; the table itself is
 * never held in memory.
 *
 * <p>Two keys that share a hash (about one chance in 10^5 for a table of 10^7 items) are marked {@link #AMBIGUOUS};
 * the rebuild then refuses to guess if one of them has stream records. Not thread-safe: the scan calls it under its
 * lock.
 */
final class ScannedStates {
    /** The answer for a key the scan did not see. */
    static final long NOT_SCANNED = 0;
    /** The answer for a key whose hash another scanned key shares. */
    static final long AMBIGUOUS = 1;

    private long[] keys = new long[1024];
    private long[] prints = new long[1024];
    private int size;

    void put(Key key, Map<String, AttributeValue> item) {
        if (size * 2 >= keys.length) {
            grow();
        }
        long hash = keyHash(key);
        int slot = slot(hash);
        if (keys[slot] == hash) {
            prints[slot] = AMBIGUOUS;
            return;
        }
        keys[slot] = hash;
        prints[slot] = fingerprint(item);
        size++;
    }

    /** The fingerprint of the state the scan saw, {@link #NOT_SCANNED} or {@link #AMBIGUOUS}. */
    long get(Key key) {
        long hash = keyHash(key);
        int slot = slot(hash);
        return keys[slot] == hash ? prints[slot] : NOT_SCANNED;
    }

    int size() {
        return size;
    }

    /** Open addressing, linear probing: the slot holding {@code hash}, or the empty one where it would go. */
    private int slot(long hash) {
        int mask = keys.length - 1;
        int slot = (int) (hash ^ (hash >>> 32)) & mask;
        while (keys[slot] != 0 && keys[slot] != hash) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldPrints = prints;
        keys = new long[oldKeys.length * 2];
        prints = new long[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                prints[slot] = oldPrints[i];
            }
        }
    }

    private static long keyHash(Key key) {
        long hash = hash(key.pk() + '\u0000' + key.sk());
        return hash == 0 ? 1 : hash;
    }

    /**
     * A fingerprint of an item's attributes that does not depend on how they are listed: map entries and set members
     * sorted, numbers by value. Never {@link #NOT_SCANNED} or {@link #AMBIGUOUS}.
     */
    static long fingerprint(Map<String, AttributeValue> item) {
        StringBuilder canonical = new StringBuilder();
        appendMap(canonical, item);
        long print = hash(canonical.toString());
        return print == NOT_SCANNED || print == AMBIGUOUS ? 2 : print;
    }

    private static void appendMap(StringBuilder out, Map<String, AttributeValue> map) {
        out.append('{').append(map.size()).append(':');
        for (Map.Entry<String, AttributeValue> entry : new TreeMap<>(map).entrySet()) {
            appendString(out, entry.getKey());
            append(out, entry.getValue());
        }
        out.append('}');
    }

    private static void append(StringBuilder out, AttributeValue value) {
        switch (value.type()) {
            case S -> appendString(out.append('S'), value.s());
            case N -> appendString(out.append('N'), number(value.n()));
            case B -> appendString(out.append('B'), Base64.getEncoder().encodeToString(value.b().asByteArray()));
            case BOOL -> out.append(value.bool() ? 'T' : 'F');
            case NUL -> out.append('0');
            case M -> appendMap(out.append('M'), value.m());
            case L -> {
                out.append('L').append(value.l().size()).append(':');
                value.l().forEach(element -> append(out, element));
            }
            case SS -> appendSet(out.append("SS"), value.ss());
            case NS -> appendSet(out.append("NS"), value.ns().stream().map(ScannedStates::number).toList());
            case BS -> appendSet(out.append("BS"), value.bs().stream()
                    .map(b -> Base64.getEncoder().encodeToString(b.asByteArray())).toList());
            default -> throw new IllegalArgumentException("attribute value of an unknown type: " + value);
        }
    }

    private static void appendSet(StringBuilder out, List<String> members) {
        List<String> sorted = new ArrayList<>(members);
        sorted.sort(null);
        out.append(sorted.size()).append(':');
        sorted.forEach(member -> appendString(out, member));
    }

    private static void appendString(StringBuilder out, String text) {
        out.append(text.length()).append(':').append(text);
    }

    private static String number(String n) {
        return new BigDecimal(n).stripTrailingZeros().toString();
    }

    private static long hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
