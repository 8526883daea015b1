package io.tally.core;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
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

    /** The length of {@link #format}'s text. */
    private static final int OWN_FORM_LENGTH = 24;
    private static final long SECONDS_PER_DAY = 86_400L;

    private Timestamps() {
    }

    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }

    /**
     * Reads an ISO-8601 instant as {@link Instant#parse} does. Tally's own form ({@link #format}: 24 characters, three
     * fraction digits) is read without the formatter, which costs several times more: the stream function reads one or
     * more of these in every image it derives from.
     *
     * @throws MalformedItemException when {@code text} is not an instant
     */
    public static Instant parse(String text) {
        if (text == null) {
            throw new MalformedItemException("not an ISO-8601 instant: null");
        }
        Instant fast = parseOwnForm(text);
        if (fast != null) {
            return fast;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new MalformedItemException("not an ISO-8601 instant: " + text);
        }
    }

    /** {@code uuuu-MM-dd'T'HH:mm:ss.SSS'Z'} read by hand, or null for anything else (the formatter then decides). */
    private static Instant parseOwnForm(String text) {
        if (text.length() != OWN_FORM_LENGTH || text.charAt(4) != '-' || text.charAt(7) != '-'
                || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':'
                || text.charAt(19) != '.' || text.charAt(23) != 'Z') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        int millis = digits(text, 20, 3);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > YearMonth.of(year, month).lengthOfMonth()
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) {
            return null; // a leap second, a day that does not exist, a sign: the formatter's rules apply
        }
        long epochSecond = LocalDate.of(year, month, day).toEpochDay() * SECONDS_PER_DAY
                + hour * 3600L + minute * 60L + second;
        return Instant.ofEpochSecond(epochSecond, millis * 1_000_000L);
    }

    /** The decimal number of {@code count} ASCII digits from {@code from}, or -1 if one is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Server timestamps carry milliseconds only. */
    public static Instant truncate(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
