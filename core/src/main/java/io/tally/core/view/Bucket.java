package io.tally.core.view;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Optional;

/**
 * A time bucket of a view: the UTC day or month of an instant of the entity. An entity counts in the bucket of its own
 * instant (a record that arrives late counts in its own bucket, not in the current one), and an entity whose instant
 * changes moves between buckets as it would between groups.
 */
public enum Bucket {
    /** The UTC day, {@code yyyy-MM-dd}. */
    DAY("DAY", DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT)) {
        @Override
        public String of(Instant at) {
            return LocalDate.ofInstant(at, ZoneOffset.UTC).format(format);
        }

        @Override
        boolean valid(String text) {
            LocalDate.parse(text, format);
            return true;
        }
    },
    /** The UTC month, {@code yyyy-MM}. */
    MONTH("MONTH", DateTimeFormatter.ofPattern("uuuu-MM").withResolverStyle(ResolverStyle.STRICT)) {
        @Override
        public String of(Instant at) {
            return YearMonth.from(at.atOffset(ZoneOffset.UTC)).format(format);
        }

        @Override
        boolean valid(String text) {
            YearMonth.parse(text, format);
            return true;
        }
    };

    /** The sort key prefix of a bucket's item, by default ({@code MONTH#2026-11}). */
    final String prefix;
    final DateTimeFormatter format;

    Bucket(String prefix, DateTimeFormatter format) {
        this.prefix = prefix;
        this.format = format;
    }

    /** The bucket of an instant. */
    public abstract String of(Instant at);

    abstract boolean valid(String text);

    /** The bucket a text names, exactly in the bucket's form ({@code 2026-1} or {@code 2026-13} is none). */
    public Optional<String> parse(String text) {
        if (text == null || text.length() != (this == DAY ? 10 : 7)) {
            return Optional.empty();
        }
        try {
            return valid(text) ? Optional.of(text) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The form a bucket is written in, for messages. */
    public String form() {
        return this == DAY ? "YYYY-MM-DD" : "YYYY-MM";
    }
}
