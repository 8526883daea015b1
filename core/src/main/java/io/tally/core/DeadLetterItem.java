package io.tally.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A stream record the stream processor could not process, kept in the table with the reason: its type and key.
 *
 * <pre>
 * DeadLetter      DEADLETTER#&lt;yyyy-MM-dd&gt;#&lt;slot&gt;  &lt;sequence&gt;#&lt;eventId&gt;
 * </pre>
 *
 * <p>The letters of a day are spread over {@link #PARTITIONS} partitions, the slot (0 to 15) a hash of the sort key, so
 * that an outage, when letters come in bursts, does not make one partition hot; the same letter always lands in the
 * same slot, so filing it again overwrites it. Letters filed before they were spread are in the day's partition
 * without a slot ({@code DEADLETTER#<yyyy-MM-dd>}): readers query it too ({@link #partitions}).
 *
 * <p>A letter carries the table's TTL attribute ({@link TableSchema#TTL}, epoch seconds) {@link #RETENTION} after it
 * was filed: DynamoDB removes it once it has been left that long (on AWS; DynamoDB Local never expires items). The
 * removal is a change the stream processor skips, as it skips every record of a derived type.
 */
public final class DeadLetterItem {
    public static final EntityType TYPE = EntityType.derivedType("DeadLetter");
    public static final String PREFIX = "DEADLETTER#";
    /** The partitions a day's letters are spread over. */
    public static final int PARTITIONS = 16;

    /** How long a letter is kept after it was filed, unless an operator deletes it first. */
    public static final Duration RETENTION = Duration.ofDays(30);

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);

    private DeadLetterItem() {
    }

    /**
     * Filed under the day it was written, in one of the day's partitions, in stream order within a shard. The same
     * record always lands on the same key, so filing it again is harmless.
     */
    public static Key key(Instant writtenAt, String sequence, String eventId) {
        return key(day(writtenAt), sequence + "#" + eventId);
    }

    /** The key of the letter of {@code day} ({@code yyyy-MM-dd}) with this sort key, in the slot the sort key gives. */
    public static Key key(String day, String sortKey) {
        return new Key(partition(day, slot(sortKey)), sortKey);
    }

    /** The slot of a letter, 0 to {@link #PARTITIONS} - 1: a CRC-32 of its sort key (stable across JVMs and versions). */
    public static int slot(String sortKey) {
        CRC32 crc = new CRC32();
        crc.update(sortKey.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % PARTITIONS);
    }

    /** The (UTC) day of {@code writtenAt}: {@code 2024-05-01}. */
    public static String day(Instant writtenAt) {
        return DAY.format(writtenAt);
    }

    /** The partition of a slot of a day's letters: {@code DEADLETTER#2024-05-01#7}. */
    public static String partition(String day, int slot) {
        return PREFIX + day + "#" + slot;
    }

    /**
     * Every partition that may hold letters of {@code day}: its {@link #PARTITIONS} slots, then the partition without a
     * slot ({@code DEADLETTER#2024-05-01}) where letters filed before they were spread lie.
     */
    public static List<String> partitions(String day) {
        List<String> partitions = new ArrayList<>(PARTITIONS + 1);
        for (int slot = 0; slot < PARTITIONS; slot++) {
            partitions.add(partition(day, slot));
        }
        partitions.add(PREFIX + day);
        return partitions;
    }

    /** The keys a letter of {@code day} with this sort key may have: in its slot, or (filed before) without one. */
    public static List<Key> keys(String day, String sortKey) {
        return List.of(key(day, sortKey), new Key(PREFIX + day, sortKey));
    }

    /** The day of a letter's partition key, with or without its slot: {@code 2024-05-01}. */
    public static String dayOf(String partitionKey) {
        if (!partitionKey.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a dead letter's partition: " + partitionKey);
        }
        String rest = partitionKey.substring(PREFIX.length());
        int slot = rest.indexOf('#');
        return slot < 0 ? rest : rest.substring(0, slot);
    }

    /** The value of the TTL attribute of a letter filed at {@code recordedAt}: {@link #RETENTION} later, in seconds. */
    public static long expiresAt(Instant recordedAt) {
        return recordedAt.plus(RETENTION).getEpochSecond();
    }
}
