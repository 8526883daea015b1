package io.tally.core.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Ids;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One field of a JSON request body, declared once with its type, range and whether it is required: the route's
 * {@code body(...)} lists it (so the OpenAPI document shows its type and range, {@link #schema}), and the handler reads
 * it with {@link Body#get}, which applies exactly {@link Body}'s rules and messages for that kind of field. A route's
 * input contract is a {@link Fields} of them.
 *
 * <pre>
 * static final Field&lt;String&gt; TITLE = Field.string("title", 1, 200).required();
 * static final Fields CREATE = Fields.of(POST_ID, TITLE, TEXT);
 * router.add("POST", "/users/{userId}/posts", ...).body(CREATE);
 * String title = Body.parse(request.body(), CREATE).get(TITLE);
 * </pre>
 *
 * @param <T> what the handler gets: a string, a whole number, a decimal or a boolean (null when an optional field is
 *            absent)
 */
public final class Field<T> {
    private enum Kind {
        /** One line, not blank, {@code min..max} characters ({@link Body#optionalString}). */
        STRING,
        /** Text that may span lines ({@link Body#optionalMultiline}). */
        MULTILINE,
        /** One line that may be empty or blank, at most {@code max} characters ({@link Body#optionalLine}). */
        LINE,
        /** An identifier ({@link Ids#PATTERN}). */
        ID,
        /** An absolute {@code http} or {@code https} URL, one line of at most {@code max} characters. */
        URL,
        /** A whole number in {@code min..max}. */
        WHOLE,
        /** A decimal in a range that DynamoDB holds exactly. */
        DECIMAL,
        BOOLEAN
    }

    private final String name;
    private final Kind kind;
    private final long min;
    private final long max;
    private final BigDecimal low;
    private final BigDecimal high;
    private final int decimals;
    private final boolean required;

    private Field(String name, Kind kind, long min, long max, BigDecimal low, BigDecimal high, int decimals,
                  boolean required) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.min = min;
        this.max = max;
        this.low = low;
        this.high = high;
        this.decimals = decimals;
        this.required = required;
    }

    /** One line of text, not blank, of {@code minLength..maxLength} characters (code points); optional. */
    public static Field<String> string(String name, int minLength, int maxLength) {
        return new Field<>(name, Kind.STRING, minLength, maxLength, null, null, -1, false);
    }

    /** Text that may span lines (a post's body, a comment), not blank, {@code minLength..maxLength}; optional. */
    public static Field<String> multiline(String name, int minLength, int maxLength) {
        return new Field<>(name, Kind.MULTILINE, minLength, maxLength, null, null, -1, false);
    }

    /** One line of free text of at most {@code maxLength} characters, which may be empty or blank (a note); optional. */
    public static Field<String> line(String name, int maxLength) {
        return new Field<>(name, Kind.LINE, 0, maxLength, null, null, -1, false);
    }

    /**
     * An absolute {@code http} or {@code https} URL with a host, of at most {@code maxLength} characters; optional.
     * Anything else ({@code javascript:}, {@code data:}, {@code file:}, a relative reference) is a
     * {@code validation_failed} naming the field: a URL a domain stores is shown to other readers as a link.
     */
    public static Field<String> url(String name, int maxLength) {
        return new Field<>(name, Kind.URL, 1, maxLength, null, null, -1, false);
    }

    /** An identifier ({@link Ids#PATTERN}); optional. */
    public static Field<String> id(String name) {
        return new Field<>(name, Kind.ID, 1, 64, null, null, -1, false);
    }

    /** A whole number in {@code min..max} ({@code 5.0} counts as whole); always required. */
    public static Field<Long> whole(String name, long min, long max) {
        return new Field<>(name, Kind.WHOLE, min, max, null, null, -1, true);
    }

    /** A number in {@code min..max} that DynamoDB holds exactly, at most {@code maxDecimals} after the point; optional. */
    public static Field<BigDecimal> decimal(String name, BigDecimal min, BigDecimal max, int maxDecimals) {
        return new Field<>(name, Kind.DECIMAL, 0, 0, min, max, maxDecimals, false);
    }

    /** {@code true} or {@code false}; optional. */
    public static Field<Boolean> bool(String name) {
        return new Field<>(name, Kind.BOOLEAN, 0, 0, null, null, -1, false);
    }

    /**
     * This field, required: its absence (or null) is a {@code validation_failed}, {@code '<name>' is required}.
     *
     * @throws IllegalStateException for a kind that is only ever optional here (a note, a decimal, a boolean)
     */
    public Field<T> required() {
        if (kind == Kind.LINE || kind == Kind.DECIMAL || kind == Kind.BOOLEAN) {
            throw new IllegalStateException(name + ": a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " field is optional");
        }
        return new Field<>(name, kind, min, max, low, high, decimals, true);
    }

    /** Whether {@code other} is this field, required or not: the same name, kind and range. */
    boolean sameRule(Field<?> other) {
        return name.equals(other.name) && kind == other.kind && min == other.min && max == other.max
                && Objects.equals(low, other.low) && Objects.equals(high, other.high) && decimals == other.decimals;
    }

    public String name() {
        return name;
    }

    public boolean isRequired() {
        return required;
    }

    /** The field's value in {@code body}, checked by the rules of its kind; null when optional and absent. */
    @SuppressWarnings("unchecked")
    T read(Body body) {
        Object value = switch (kind) {
            case STRING -> required ? body.requiredString(name, (int) min, (int) max)
                    : body.optionalString(name, (int) min, (int) max);
            case MULTILINE -> required ? body.requiredMultiline(name, (int) min, (int) max)
                    : body.optionalMultiline(name, (int) min, (int) max);
            case LINE -> body.optionalLine(name, (int) max);
            case ID -> required ? body.requiredId(name) : body.optionalId(name);
            case URL -> url(required ? body.requiredString(name, (int) min, (int) max)
                    : body.optionalString(name, (int) min, (int) max));
            case WHOLE -> body.requiredLong(name, min, max);
            case DECIMAL -> body.optionalDecimal(name, low, high, decimals);
            case BOOLEAN -> body.optionalBoolean(name);
        };
        return (T) value;
    }

    /** The URL, or a {@code validation_failed} when it is not an absolute http or https one with a host. */
    private String url(String value) {
        if (value == null) {
            return null;
        }
        try {
            java.net.URI uri = new java.net.URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && !uri.getHost().isEmpty()) {
                return value;
            }
        } catch (java.net.URISyntaxException e) {
            // refused below, with the same words
        }
        throw ApiException.validation(name, "'" + name + "' must be an absolute http or https URL");
    }

    /** Its JSON schema, as the OpenAPI document shows it: type, lengths or range, an identifier's pattern. */
    public ObjectNode schema() {
        ObjectNode schema = Json.object();
        switch (kind) {
            case STRING, MULTILINE, LINE -> {
                schema.put("type", "string");
                if (min > 0) {
                    schema.put("minLength", min);
                }
                schema.put("maxLength", max);
                if (kind == Kind.MULTILINE) {
                    schema.put("description", "may span lines");
                }
            }
            case ID -> schema.put("type", "string").put("pattern", "^" + Ids.PATTERN.pattern() + "$");
            case URL -> schema.put("type", "string").put("format", "uri").put("maxLength", max)
                    .put("pattern", "^[Hh][Tt][Tt][Pp][Ss]?://").put("description", "an absolute http or https URL");
            case WHOLE -> schema.put("type", "integer").put("format", "int64").put("minimum", min).put("maximum", max);
            case DECIMAL -> schema.put("type", "number").put("minimum", low).put("maximum", high);
            case BOOLEAN -> schema.put("type", "boolean");
        }
        return schema;
    }

    @Override
    public String toString() {
        return name + " (" + kind.name().toLowerCase(java.util.Locale.ROOT) + (required ? ", required" : "") + ")";
    }
}
