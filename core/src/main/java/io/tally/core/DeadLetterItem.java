package io.tally.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A stream record the stream processor could not process, kept in the table with the reason: its type and key.
 *
 * <pre>
 * DeadLetter      DEADLETTER#&lt;yyyy-MM-dd&gt;         &lt;sequence&gt;#&lt;eventId&gt;
 * </pre>
 */
public final class DeadLetterItem {
    public static final EntityType TYPE = EntityType.derivedType("DeadLetter");
    public static final String PREFIX = "DEADLETTER#";

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);

    private DeadLetterItem() {
    }

    /**
     * Filed under the day it was written, in stream order within a shard. The same record always lands on the same
     * key, so filing it again is harmless.
     */
    public static Key key(Instant writtenAt, String sequence, String eventId) {
        return new Key(PREFIX + DAY.format(writtenAt), sequence + "#" + eventId);
    }
}
