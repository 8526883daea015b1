package io.tally.core.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.tally.core.http.Access;
import io.tally.core.view.Bucket;
import io.tally.core.view.Component;
import io.tally.core.view.CounterView;
import io.tally.core.view.RankingView;
import io.tally.core.view.View;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One section of the dashboard ({@code GET /dashboard}), declared by its domain ({@link Domain#dashboard}) as data: the
 * kind of figure it draws, the read route it reads, and which fields of the answer give the labels, the values and the
 * names of the figures (the page's {@code data-figure} attributes, which the browser test compares with the API). The
 * page has one renderer a kind and names no domain; a section is never script.
 *
 * <p>{@link #path} is the read route's path with the placeholders the page fills: {@code {month}}, the current UTC
 * month ({@code yyyy-MM}); {@code {from}} and {@code {to}}, the first and the last of the last 30 UTC days; and the one
 * of {@link #each}, read once a value. A section whose {@link #route} the server does not have stays hidden.
 *
 * <p>A template ({@link #title}, {@link Rows#label}, {@link Rows#figure}) holds {@code {name}}: a field of the row,
 * else one of the placeholders above.
 *
 * @param kind    what it draws
 * @param id      its card's element id, a lower-case word; every {@link Kind#TOTALS} section adds to the one card
 *                {@code totals}
 * @param title   its card's heading (a template: {@code Top songs, {month}})
 * @param path    what it reads, e.g. {@code /charts/downloads/{month}?limit=10}
 * @param each    null, or the values {@link #path} is read for, once each
 * @param figures fixed figures, each from its own fields of the answer (tiles, or bars such as posts by status)
 * @param rows    null, or figures from the rows of the answers (a chart's songs, a leaderboard's items)
 * @param color   its bars' colour, unless a figure names its own
 * @param hint    null, or a line under it; text between backticks is shown as code
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"kind", "id", "title", "route", "path", "each", "figures", "rows", "color", "hint"})
public record DashboardSection(Kind kind, String id, String title, String path, Each each, List<Figure> figures,
                               Rows rows, String color, String hint) {
    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    private static final Pattern COLOR = Pattern.compile("#[0-9a-f]{6}");

    /** What a section draws; the page has one renderer each. */
    public enum Kind {
        /** Tiles on the Totals card: each a {@link Figure} (a label and a number). */
        TOTALS,
        /** Horizontal bars: the {@link Figure}s, or one a row. */
        BARS,
        /** Vertical bars over days, one a row, labelled by its day ({@code yyyy-MM-dd}). */
        DAYS,
        /** A ranked table a value of {@link DashboardSection#each} ({@code #}, the label, the value), headed by the value. */
        TABLES;

        @JsonValue
        String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A figure read from its own fields of the answer.
     *
     * @param label  what the page calls it
     * @param figure its {@code data-figure} name, e.g. {@code global.users}
     * @param sum    the fields of the answer whose sum it shows (usually one), as dotted paths: {@code posts.created}
     * @param color  null, or its bar's colour
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Figure(String label, String figure, List<String> sum, String color) {
        public Figure {
            Objects.requireNonNull(label, "label");
            sum = List.copyOf(sum);
            if (sum.isEmpty()) {
                throw new IllegalArgumentException(label + ": a figure sums at least one field");
            }
            requireColor(color);
        }

        /** A tile showing the sum of {@code fields}. */
        public static Figure tile(String label, String figure, String... fields) {
            return new Figure(label, figure, List.of(fields), null);
        }

        /** A bar of its own colour. */
        public static Figure bar(String label, String figure, String field, String color) {
            return new Figure(label, figure, List.of(field), color);
        }
    }

    /**
     * Figures from rows: the list at {@link #items} of each answer, or, without it, each answer itself.
     *
     * @param items   null, or the field of the answer holding the rows
     * @param value   the field of a row holding its number
     * @param label   templates of its label; the first whose fields the row has (not null, not empty) is shown, e.g.
     *                {@code "{title} ({itemId})", "{itemId}"}
     * @param figure  null, or the template of its {@code data-figure} name, e.g. {@code songs.top.{songId}}
     * @param columns a table's headings of the label and the value
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Rows(String items, String value, List<String> label, String figure, List<String> columns) {
        public Rows {
            Objects.requireNonNull(value, "value");
            label = List.copyOf(label);
            columns = List.copyOf(columns);
            if (label.isEmpty()) {
                throw new IllegalArgumentException("rows of '" + value + "' need a label");
            }
        }

        /** The rows at {@code items} of the answer. */
        public static Rows of(String items, String value, String... label) {
            return new Rows(Objects.requireNonNull(items, "items"), value, List.of(label), null, List.of());
        }

        /** One row an answer (a section read {@link Each each} value). */
        public static Rows ofAnswers(String value, String... label) {
            return new Rows(null, value, List.of(label), null, List.of());
        }

        /** With the {@code data-figure} name of each row. */
        public Rows figure(String template) {
            return new Rows(items, value, label, template, columns);
        }

        /** With a table's headings. */
        public Rows columns(String label, String value) {
            return new Rows(items, this.value, this.label, figure, List.of(label, value));
        }
    }

    /**
     * The values a section's path is read for, once each, into its {@code {placeholder}}: those of the page's address
     * ({@code ?<parameter>=a,b}), else the defaults; with {@code seenInFeeds}, also those the activity feed's and the
     * local bus's events carry in their detail's field of the placeholder's name (remembered by the browser: no read
     * route lists them).
     */
    public record Each(String placeholder, String parameter, List<String> defaults, boolean seenInFeeds) {
        public Each {
            Objects.requireNonNull(placeholder, "placeholder");
            Objects.requireNonNull(parameter, "parameter");
            defaults = List.copyOf(defaults);
        }

        public static Each of(String placeholder, String parameter, String... defaults) {
            return new Each(placeholder, parameter, List.of(defaults), false);
        }

        /** Also the values the feeds' events name. */
        public Each andSeenInFeeds() {
            return new Each(placeholder, parameter, defaults, true);
        }
    }

    public DashboardSection {
        Objects.requireNonNull(kind, "kind");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a section's id is a lower-case word, not '" + id + "'");
        }
        if ((kind == Kind.TOTALS) != id.equals("totals")) {
            throw new IllegalArgumentException("'totals' is the id of the Totals card, which every totals section adds to");
        }
        Objects.requireNonNull(title, "title");
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException(id + ": the path of a read route, not '" + path + "'");
        }
        figures = List.copyOf(figures);
        requireColor(color);
        boolean fixed = !figures.isEmpty();
        boolean drawable = switch (kind) {
            case TOTALS -> fixed && rows == null;
            case BARS -> fixed != (rows != null);
            case DAYS, TABLES -> !fixed && rows != null;
        };
        if (!drawable) {
            throw new IllegalArgumentException(id + ": tiles are figures; bars, figures or rows; days and tables, rows");
        }
        if (rows != null && rows.items() == null && each == null) {
            throw new IllegalArgumentException(id + ": one row an answer needs values to read it for (each)");
        }
        if (each != null && !path.contains("{" + each.placeholder() + "}")) {
            throw new IllegalArgumentException(id + ": its path has no {" + each.placeholder() + "} for its values");
        }
    }

    /** Tiles on the Totals card, from the answer of {@code path}. */
    public static DashboardSection totals(String path, Figure... tiles) {
        return new DashboardSection(Kind.TOTALS, "totals", "Totals", path, null, List.of(tiles), null, null, null);
    }

    /** Horizontal bars, one a figure. */
    public static DashboardSection bars(String id, String title, String path, Figure... bars) {
        return new DashboardSection(Kind.BARS, id, title, path, null, List.of(bars), null, null, null);
    }

    /** Horizontal bars, one a row. */
    public static DashboardSection bars(String id, String title, String path, Rows rows, String color) {
        return bars(id, title, path, null, rows, color);
    }

    /** Horizontal bars, one a row of the answers for each value. */
    public static DashboardSection bars(String id, String title, String path, Each each, Rows rows, String color) {
        return new DashboardSection(Kind.BARS, id, title, path, each, List.of(), rows, color, null);
    }

    /** Vertical bars, one a row, labelled by its day. */
    public static DashboardSection days(String id, String title, String path, Rows rows, String color) {
        return new DashboardSection(Kind.DAYS, id, title, path, null, List.of(), rows, color, null);
    }

    /**
     * Horizontal bars of a ranking's top ten ({@link RankingView}), read from its route: the current
     * month's for a ranking per month, today's for one per day; one bar a group, labelled by its id, named
     * {@code <id>.<group id>}.
     *
     * @throws IllegalArgumentException for a ranking without a read route, or one that is not public read side (the
     *                                  page reads without a caller)
     */
    public static DashboardSection ranking(String id, String title, RankingView<?, ?> view, String color) {
        String path = publicRead(view, view.read()) + "?limit=10";
        if (view.bucket().isPresent()) {
            String placeholder = view.bucket().get() == Bucket.MONTH ? "{month}" : "{to}";
            path += "&" + view.bucketComponent() + "=" + placeholder;
        }
        String group = "{" + view.group() + "}";
        return bars(id, title, path, Rows.of(view.list(), view.figure(), group).figure(id + "." + group), color);
    }

    /**
     * Horizontal bars of one figure of a counter view ({@link CounterView}), one bar a group: the view's read route read
     * once for each value of {@code each}, whose placeholder is the view's group (a route lists no groups, so the
     * values come from the page's address and the feeds, as {@link Each} says); each bar labelled by {@code label} (a
     * template of the answer's fields) and named {@code <id>.{<group>}.<figure>}.
     *
     * @param figure the answer's component drawn, e.g. {@code OrgStats::employees}
     * @throws IllegalArgumentException for a view without a public read-side route, grouped by more than one field or
     *                                  counted per bucket; for values of another placeholder than the group; for a
     *                                  figure that is a group's id or not a number
     */
    public static <R extends Record> DashboardSection counts(String id, String title, CounterView<?, R> view,
                                                             Component<R, ?> figure, Each each, String label,
                                                             String color) {
        String path = publicRead(view, view.read());
        if (view.groups().size() != 1 || view.bucket().isPresent()) {
            throw new IllegalArgumentException(view + ": the dashboard draws the views of one group and no bucket");
        }
        String group = view.groups().get(0);
        if (!each.placeholder().equals(group)) {
            throw new IllegalArgumentException(id + ": its values fill {" + group + "}, not {" + each.placeholder()
                    + "}");
        }
        RecordComponent drawn = Component.describe(figure);
        if (!Number.class.isAssignableFrom(drawn.getType()) && !isNumber(drawn.getType())) {
            throw new IllegalArgumentException(id + ": " + drawn.getName() + " of " + view + " is not a number");
        }
        String template = id + ".{" + group + "}." + drawn.getName();
        return bars(id, title, path, each, Rows.ofAnswers(drawn.getName(), label).figure(template), color);
    }

    /** A ranked table a value. */
    public static DashboardSection tables(String id, String title, String path, Each each, Rows rows) {
        return new DashboardSection(Kind.TABLES, id, title, path, each, List.of(), rows, null, null);
    }

    /** With a line under it. */
    public DashboardSection hint(String hint) {
        return new DashboardSection(kind, id, title, path, each, figures, rows, color, hint);
    }

    /** The read route it needs, as the route list names it: {@code GET /charts/downloads/{month}}. */
    @JsonProperty("route")
    public String route() {
        int query = path.indexOf('?');
        return "GET " + (query < 0 ? path : path.substring(0, query));
    }

    /** The path of a view's read route, which the page reads without a caller. */
    private static String publicRead(View<?> view, Optional<CounterView.Read> read) {
        CounterView.Read route = read.orElseThrow(() -> new IllegalArgumentException(view + " has no read route"));
        if (route.access().kind() != Access.Kind.READ_SIDE) {
            throw new IllegalArgumentException(view + ": the dashboard reads public read-side routes only, not "
                    + route.access());
        }
        return route.path();
    }

    private static boolean isNumber(Class<?> type) {
        return type == long.class || type == int.class || type == double.class;
    }

    private static void requireColor(String color) {
        if (color != null && !COLOR.matcher(color).matches()) {
            throw new IllegalArgumentException("a colour is #rrggbb, not '" + color + "'");
        }
    }
}
