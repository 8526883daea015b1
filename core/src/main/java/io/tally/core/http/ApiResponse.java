package io.tally.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A response: status, body and extra headers. The body is JSON, except for a {@link #text} response (the dashboard's
 * page and its files), whose body is a string sent as it is under its own {@code Content-Type}.
 */
public record ApiResponse(int status, JsonNode body, Map<String, String> headers) {
    public static final String JSON_CONTENT_TYPE = "application/json";

    public ApiResponse {
        headers = Map.copyOf(headers);
    }

    public static ApiResponse ok(JsonNode body) {
        return new ApiResponse(200, body, Map.of());
    }

    /** A 200 whose body is a contract shape (a record with {@code @JsonPropertyOrder}). */
    public static ApiResponse ok(Object shape) {
        return ok(Json.tree(shape));
    }

    public static ApiResponse created(JsonNode body, String location) {
        return new ApiResponse(201, body, Map.of("Location", location));
    }

    /** A 201 whose body is a contract shape, with the new resource's {@code Location}. */
    public static ApiResponse created(Object shape, String location) {
        return created(Json.tree(shape), location);
    }

    /** A 200 whose body is {@code text}, sent as it is with {@code contentType} (not JSON). */
    public static ApiResponse text(String contentType, String text) {
        return new ApiResponse(200, TextNode.valueOf(text), Map.of("Content-Type", contentType));
    }

    /** The {@code Content-Type} of the response: JSON unless a {@link #text} response says otherwise. */
    public String contentType() {
        return headers.getOrDefault("Content-Type", JSON_CONTENT_TYPE);
    }

    /** The body as it goes on the wire: the JSON text, or a {@link #text} response's string. */
    public String bodyText() {
        return !JSON_CONTENT_TYPE.equals(contentType()) && body.isTextual() ? body.asText() : Json.write(body);
    }

    public ApiResponse withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new ApiResponse(status, body, copy);
    }

    /** The answer with these headers added (or replaced), in their order: one copy of the map for all of them. */
    public ApiResponse withHeaders(Map<String, String> added) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.putAll(added);
        return new ApiResponse(status, body, copy);
    }

    public ApiResponse withETag(long version) {
        return withHeader("ETag", IfMatch.etag(version));
    }

    public static ApiResponse error(ApiException e) {
        return error(e.code(), e.getMessage(), e.field());
    }

    public static ApiResponse error(ErrorCode code, String message, String field) {
        ObjectNode error = Json.object();
        error.put("code", code.code());
        error.put("message", message);
        if (field != null) {
            error.put("field", field);
        }
        ObjectNode body = Json.object();
        body.set("error", error);
        return new ApiResponse(code.status(), body, Map.of());
    }
}
