package io.tally.core.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.tally.core.Timestamps;
import java.io.IOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;

/**
 * The one JSON mapper of the service: strict on input, plain on output. The contract's shapes are records, written
 * with their components in declared order (Jackson's order for records; {@code @JsonPropertyOrder} where a shape leaves
 * components out or orders them otherwise, {@link #tree}); an {@link Instant} is written as the contract's timestamp (ISO-8601 UTC
 * with milliseconds, {@link Timestamps#format}).
 */
public final class Json {
    /** How deep a request body may nest objects and arrays. */
    static final int MAX_DEPTH = 32;
    /** The parser's word for a field given twice ({@code STRICT_DUPLICATE_DETECTION}). */
    private static final java.util.regex.Pattern DUPLICATE = java.util.regex.Pattern.compile("Duplicate field '(.*)'");
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .addModule(new SimpleModule("tally-timestamps").addSerializer(Instant.class, new TimestampSerializer()))
            .build();

    /**
     * Turns contract shapes into trees: as {@link #MAPPER} but without {@code USE_BIG_DECIMAL_FOR_FLOATS}, which would
     * make a {@code double} a normalised decimal ({@code 3.0} written {@code 3}); a shape's numbers are written as Java
     * writes them.
     */
    private static final ObjectMapper SHAPES = MAPPER.copy().disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    }

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * Parses a request body that must be one JSON object; anything else is a {@code bad_request}, and so is text that
     * is not valid Unicode: the body itself, or a string in it (a key or a value at any depth) that a JSON escape made
     * a lone surrogate ({@code "\ud800"}), which Jackson accepts. A number so large or so small that it cannot be read
     * at all ({@code 1e2147483648}) is a {@code validation_failed} naming its field, as any number out of a field's
     * range is.
     */
    /**
     * Why a body is not one JSON document, said in the contract's words, never the parser's (whose messages name its
     * classes and settings): too deep, a field twice, more than one value, or not JSON at a line and column.
     */
    static String notValid(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException) {
            return "request body nests objects and arrays deeper than " + MAX_DEPTH + " levels";
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        java.util.regex.Matcher duplicate = DUPLICATE.matcher(original);
        if (duplicate.find()) {
            return "request body names the field '" + duplicate.group(1) + "' twice";
        }
        if (original.startsWith("Trailing token")) {
            return "request body holds more than one JSON value";
        }
        com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? "request body is not valid JSON"
                : "request body is not valid JSON at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    public static ObjectNode parseObject(String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        if (!Text.isValidUnicode(body)) {
            throw ApiException.invalidRequest("request body is not valid UTF-8");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest(notValid(e));
        } catch (NumberFormatException | ArithmeticException e) {
            String field = fieldOfUnreadableNumber(body);
            throw field == null
                    ? ApiException.badRequest("request body holds a number out of any range")
                    : ApiException.validation(field, "'" + field + "' is a number out of any range");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!Text.isValidUnicode(field.getKey())) {
                throw ApiException.invalidRequest("a field name in the request body is not valid Unicode (a lone surrogate)");
            }
            if (!isValidUnicode(field.getValue())) {
                throw ApiException.invalidRequest("'" + field.getKey() + "' is not valid Unicode (a lone surrogate)",
                        field.getKey());
            }
        }
        return (ObjectNode) node;
    }

    /** Whether every string in {@code node} (keys and values, at any depth; it is at most 32 deep) is valid Unicode. */
    private static boolean isValidUnicode(JsonNode node) {
        if (node.isTextual()) {
            return Text.isValidUnicode(node.textValue());
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!Text.isValidUnicode(field.getKey()) || !isValidUnicode(field.getValue())) {
                return false;
            }
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (!isValidUnicode(element)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The top-level field whose value is the number {@code body} cannot hold, or null (not at the top level). */
    private static String fieldOfUnreadableNumber(String body) {
        try (JsonParser parser = MAPPER.getFactory().createParser(body)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.VALUE_NUMBER_FLOAT || token == JsonToken.VALUE_NUMBER_INT) {
                    try {
                        parser.getDecimalValue();
                    } catch (NumberFormatException | ArithmeticException e) {
                        JsonStreamContext context = parser.getParsingContext();
                        return context.getParent() != null && context.getParent().inRoot() && context.inObject()
                                ? parser.currentName() : null;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** A contract shape (a record) as a JSON object, fields in its order (declared, or its {@code @JsonPropertyOrder}). */
    public static ObjectNode tree(Object shape) {
        JsonNode node = SHAPES.valueToTree(shape);
        if (!node.isObject()) {
            throw new IllegalArgumentException("not a JSON object: " + shape);
        }
        return (ObjectNode) node;
    }

    /** A contract shape's fields as a map, in its order, values as Java holds them (an event's detail, say). */
    @SuppressWarnings("unchecked")
    public static java.util.Map<String, Object> fields(Object shape) {
        return SHAPES.convertValue(shape, java.util.LinkedHashMap.class);
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a JSON tree", e);
        }
    }

    /** The contract's timestamps: {@code 2026-01-01T00:00:00.000Z}, never a number. */
    private static final class TimestampSerializer extends StdSerializer<Instant> {
        TimestampSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, com.fasterxml.jackson.core.JsonGenerator generator,
                              com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
            generator.writeString(Timestamps.format(value));
        }
    }
}
