package io.tally.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * ISO-8601 UTC timestamps with exactly three fraction digits, so that their string order is their time order
 * (a sort key needs that; {@link DateTimeFormatter#ISO_INSTANT} drops zero fractions).
 */
public final class Timestamps {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }

    public static Instant parse(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new MalformedItemException("not an ISO-8601 instant: " + text);
        }
    }

    /** Server timestamps carry milliseconds only. */
    public static Instant truncate(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
