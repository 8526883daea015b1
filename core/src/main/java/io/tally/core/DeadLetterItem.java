package io.tally.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A stream record the stream processor could not process, kept in the table with the reason: its type and key.
 *
 * <pre>
 * DeadLetter      DEADLETTER#&lt;yyyy-MM-dd&gt;         &lt;sequence&gt;#&lt;eventId&gt;
 * </pre>
 *
 * <p>A letter carries the table's TTL attribute ({@link TableSchema#TTL}, epoch seconds) {@link #RETENTION} after it
 * was filed: DynamoDB removes it once it has been left that long (on AWS; DynamoDB Local never expires items). The
 * removal is a change the stream processor skips, as it skips every record of a derived type.
 */
public final class DeadLetterItem {
    public static final EntityType TYPE = EntityType.derivedType("DeadLetter");
    public static final String PREFIX = "DEADLETTER#";

    /** How long a letter is kept after it was filed, unless an operator deletes it first. */
    public static final Duration RETENTION = Duration.ofDays(30);

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);

    private DeadLetterItem() {
    }

    /**
     * Filed under the day it was written, in stream order within a shard. The same record always lands on the same
     * key, so filing it again is harmless.
     */
    public static Key key(Instant writtenAt, String sequence, String eventId) {
        return new Key(partition(writtenAt), sequence + "#" + eventId);
    }

    /** The partition of the letters written on the (UTC) day of {@code writtenAt}: {@code DEADLETTER#2024-05-01}. */
    public static String partition(Instant writtenAt) {
        return PREFIX + DAY.format(writtenAt);
    }

    /** The value of the TTL attribute of a letter filed at {@code recordedAt}: {@link #RETENTION} later, in seconds. */
    public static long expiresAt(Instant recordedAt) {
        return recordedAt.plus(RETENTION).getEpochSecond();
    }
}
