package io.tally.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Ids;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Set;

/**
 * Typed, validated access to the fields of a JSON request body. Every rule broken is a
 * {@code validation_failed} naming the field; a field the route does not know is one too. Text follows {@link Text}'s
 * rules; a number must be one the field's range allows and DynamoDB holds exactly, so that nothing is stored altered.
 */
public final class Body {
    /** The significant digits a DynamoDB number holds. */
    public static final int MAX_DIGITS = 38;

    private final ObjectNode node;
    /** The route's input contract, when parsed against one: {@link #get} reads only its fields. */
    private final Fields contract;

    private Body(ObjectNode node, Fields contract) {
        this.node = node;
        this.contract = contract;
    }

    /** Parses the body and rejects fields the route's contract does not list. */
    public static Body parse(String body, Fields contract) {
        return new Body(parse(body, contract.names()).node, contract);
    }

    /**
     * As {@link #parse(String, Fields)}, where no body at all is the same as {@code {}}: for a route whose body is
     * optional ({@code optionalBody}). A body that is there must still be a JSON object.
     */
    public static Body parseOptional(String body, Fields contract) {
        return body == null || body.isBlank() ? new Body(Json.object(), contract) : parse(body, contract);
    }

    /**
     * The field's value, checked by the rules of its kind (the messages of the methods below) and required as the
     * route's contract declares it ({@code Fields.of(NAME.required())}); null when it is optional and absent.
     *
     * @throws IllegalStateException for a field the contract this body was parsed against does not list
     */
    public <T> T get(Field<T> field) {
        Field<T> declared = contract == null ? null : contract.find(field);
        if (declared == null) {
            throw new IllegalStateException(field + " is not a field of the route's contract " + contract);
        }
        return declared.read(this);
    }

    /** Parses the body and rejects fields outside {@code allowed}. */
    public static Body parse(String body, Set<String> allowed) {
        ObjectNode node = Json.parseObject(body);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw ApiException.validation(name, "unknown field '" + name + "'");
            }
        }
        return new Body(node, null);
    }

    /**
     * As {@link #parse}, where no body at all is the same as {@code {}}: for a route whose every field is optional
     * (a bookmark's note). A body that is there must still be a JSON object.
     */
    public static Body parseOptional(String body, Set<String> allowed) {
        return body == null || body.isBlank() ? new Body(Json.object(), null) : parse(body, allowed);
    }

    public boolean has(String field) {
        JsonNode value = node.get(field);
        return value != null && !value.isNull();
    }

    /** A one-line string of {@code minLength..maxLength} characters; see {@link #optionalString}. */
    public String requiredString(String field, int minLength, int maxLength) {
        return required(field, optionalString(field, minLength, maxLength));
    }

    /**
     * A one-line string of {@code minLength..maxLength} characters (code points) that is not blank and follows
     * {@link Text}'s rules with no control character at all, or null if absent.
     */
    public String optionalString(String field, int minLength, int maxLength) {
        return text(field, minLength, maxLength, Text.Lines.SINGLE);
    }

    /** Text that may span lines (a post's body, a comment); see {@link #optionalMultiline}. */
    public String requiredMultiline(String field, int minLength, int maxLength) {
        return required(field, optionalMultiline(field, minLength, maxLength));
    }

    /**
     * As {@link #optionalString}, except that tab, line feed and carriage return are allowed: text that may span
     * lines, such as a post's body or a comment.
     */
    public String optionalMultiline(String field, int minLength, int maxLength) {
        return text(field, minLength, maxLength, Text.Lines.ALLOWED);
    }

    /**
     * One line of free text of at most {@code maxLength} characters (code points), or null if absent: a note. Unlike
     * {@link #optionalString} it may be empty or blank and hold a tab; a line break ({@code \n}, {@code \r}) or
     * another control character is refused, as text that is not valid Unicode is.
     */
    public String optionalLine(String field, int maxLength) {
        String text = string(field);
        if (text == null) {
            return null;
        }
        String problem = Text.problem(text, Text.Lines.ALLOWED);
        if (problem == null && (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0)) {
            problem = "must be one line (no line break)";
        }
        if (problem != null) {
            throw ApiException.validation(field, "'" + field + "' " + problem);
        }
        if (text.codePointCount(0, text.length()) > maxLength) {
            throw ApiException.validation(field, "'" + field + "' must be at most " + maxLength + " characters long");
        }
        return text;
    }

    /** The field's string, or null if absent; anything but a string is a {@code validation_failed}. */
    private String string(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.validation(field, "'" + field + "' must be a string");
        }
        return value.textValue();
    }

    private static String required(String field, String value) {
        if (value == null) {
            throw ApiException.validation(field, "'" + field + "' is required");
        }
        return value;
    }

    private String text(String field, int minLength, int maxLength, Text.Lines lines) {
        String text = string(field);
        if (text == null) {
            return null;
        }
        String problem = Text.problem(text, lines);
        if (problem != null) {
            throw ApiException.validation(field, "'" + field + "' " + problem);
        }
        int length = text.codePointCount(0, text.length());
        if (length < minLength || length > maxLength) {
            throw ApiException.validation(field,
                    "'" + field + "' must be " + minLength + ".." + maxLength + " characters long");
        }
        if (text.isBlank()) {
            throw ApiException.validation(field, "'" + field + "' must not be blank");
        }
        return text;
    }

    /** An identifier matching {@link Ids#PATTERN}, or null if absent. */
    public String optionalId(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || !Ids.isValid(value.textValue())) {
            throw ApiException.validation(field, "'" + field + "' must match " + Ids.PATTERN.pattern());
        }
        return value.textValue();
    }

    public String requiredId(String field) {
        String value = optionalId(field);
        if (value == null) {
            throw ApiException.validation(field, "'" + field + "' is required");
        }
        return value;
    }

    /** A whole number in {@code min..max}; {@code 5.0} counts as whole, {@code "5"} and {@code 5.5} do not. */
    public long requiredLong(String field, long min, long max) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.validation(field, "'" + field + "' is required");
        }
        String rule = "'" + field + "' must be a whole number " + min + ".." + max;
        if (!value.isNumber()) {
            throw ApiException.validation(field, rule);
        }
        BigDecimal decimal = value.decimalValue();
        if (decimal.signum() != 0 && decimal.stripTrailingZeros().scale() > 0) {
            throw ApiException.validation(field, rule);
        }
        if (decimal.compareTo(BigDecimal.valueOf(min)) < 0 || decimal.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw ApiException.validation(field, rule);
        }
        return decimal.longValueExact();
    }

    /**
     * A number in {@code min..max} that DynamoDB can hold exactly ({@link #isStorable}), or null if absent. A number
     * written with trailing zeros ({@code 0.50}) is the same number ({@code 0.5}).
     */
    public BigDecimal optionalDecimal(String field, BigDecimal min, BigDecimal max) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        String rule = "'" + field + "' must be a number " + min.toPlainString() + ".." + max.toPlainString();
        if (!value.isNumber()) {
            throw ApiException.validation(field, rule);
        }
        BigDecimal decimal = value.decimalValue();
        if (decimal.compareTo(min) < 0 || decimal.compareTo(max) > 0) {
            throw ApiException.validation(field, rule);
        }
        if (!isStorable(decimal)) {
            throw ApiException.validation(field, rule + " with at most " + MAX_DIGITS
                    + " significant digits, none smaller than 1E-130");
        }
        return decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
    }

    /**
     * As {@link #optionalDecimal(String, BigDecimal, BigDecimal)}, with at most {@code maxDecimals} digits after the
     * decimal point (trailing zeros aside): {@code 1e-131} has 131.
     */
    public BigDecimal optionalDecimal(String field, BigDecimal min, BigDecimal max, int maxDecimals) {
        BigDecimal decimal = optionalDecimal(field, min, max);
        if (decimal != null && decimal.scale() > maxDecimals) {
            throw ApiException.validation(field, "'" + field + "' must be a number " + min.toPlainString() + ".."
                    + max.toPlainString() + " with at most " + maxDecimals + " digits after the decimal point");
        }
        return decimal;
    }

    /**
     * Whether DynamoDB holds {@code decimal} exactly: at most 38 significant digits, and zero or a magnitude from
     * 1E-130 to below 1E+126. Anything else it refuses ("Number underflow", "overflow", "more than 38 significant
     * digits"), which must be the client's 400, not the table's 500.
     */
    public static boolean isStorable(BigDecimal decimal) {
        if (decimal.signum() == 0) {
            return true;
        }
        BigDecimal stripped = decimal.stripTrailingZeros();
        // The exponent of the first significant digit, as in 1.23E-5: -5. Computed in long, scale may be extreme.
        long exponent = (long) stripped.precision() - stripped.scale() - 1;
        return stripped.precision() <= MAX_DIGITS && exponent >= -130 && exponent <= 125;
    }

    public Boolean optionalBoolean(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isBoolean()) {
            throw ApiException.validation(field, "'" + field + "' must be true or false");
        }
        return value.booleanValue();
    }
}
