package io.tally.domains.songs;

import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The periods of the read side's routes: UTC days {@code yyyy-MM-dd} and months {@code yyyy-MM}, strictly parsed. */
final class Periods {
    /** The longest day range a route answers. */
    static final int MAX_DAYS = 366;

    /** Four-digit years only: the formatter alone would take {@code 12345-01}. */
    private static final Pattern DAY_SHAPE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    private static final Pattern MONTH_SHAPE = Pattern.compile("[0-9]{4}-[0-9]{2}");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd")
            .withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("uuuu-MM")
            .withResolverStyle(ResolverStyle.STRICT);

    private Periods() {
    }

    /** A validated range of days, both ends included. */
    record DayRange(LocalDate from, LocalDate to) {
        /** Every day of the range, in order. */
        List<String> days() {
            List<String> days = new ArrayList<>();
            for (LocalDate day = from; !day.isAfter(to); day = day.plusDays(1)) {
                days.add(day.toString());
            }
            return days;
        }
    }

    /** {@code from} and {@code to}: both required, real days, {@code from} not after {@code to}, at most 366 days. */
    static DayRange dayRange(ApiRequest request) {
        LocalDate from = day(request, "from");
        LocalDate to = day(request, "to");
        if (from.isAfter(to)) {
            throw ApiException.badRequest("'from' must not be after 'to'", "from");
        }
        if (ChronoUnit.DAYS.between(from, to) + 1 > MAX_DAYS) {
            throw ApiException.badRequest("a range covers at most " + MAX_DAYS + " days", "to");
        }
        return new DayRange(from, to);
    }

    /** A month path parameter {@code yyyy-MM}. */
    static String month(ApiRequest request) {
        String value = request.pathParameters().get("month");
        try {
            if (value == null || !MONTH_SHAPE.matcher(value).matches()) {
                throw new DateTimeParseException("not yyyy-MM", String.valueOf(value), 0);
            }
            return YearMonth.parse(value, MONTH).toString();
        } catch (DateTimeParseException e) {
            throw ApiException.validation("month", "'month' must be a month yyyy-MM");
        }
    }

    private static LocalDate day(ApiRequest request, String name) {
        String value = request.queryParameter(name);
        if (value == null) {
            throw ApiException.badRequest("'" + name + "' is required (yyyy-MM-dd)", name);
        }
        try {
            if (!DAY_SHAPE.matcher(value).matches()) {
                throw new DateTimeParseException("not yyyy-MM-dd", value, 0);
            }
            return LocalDate.parse(value, DAY);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("'" + name + "' must be a day yyyy-MM-dd", name);
        }
    }
}
