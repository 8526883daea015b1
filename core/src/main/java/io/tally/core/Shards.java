package io.tally.core;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Stable shard placement: the same id always lands on the same shard, in every JVM and every run, so that a
 * rebuild from the base items places derived entries exactly where the stream processor put them.
 */
public final class Shards {
    private Shards() {
    }

    /** The shard {@code 0..count-1} of an id. CRC-32 is specified bit for bit, unlike {@code hashCode}. */
    public static int of(String id, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("shard count must be at least 1: " + count);
        }
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count);
    }
}
