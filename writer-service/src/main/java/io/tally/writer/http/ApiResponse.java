package io.tally.writer.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** A JSON response: status, body and extra headers ({@code Content-Type} is always JSON). */
public record ApiResponse(int status, JsonNode body, Map<String, String> headers) {

    public ApiResponse {
        headers = Map.copyOf(headers);
    }

    public static ApiResponse ok(JsonNode body) {
        return new ApiResponse(200, body, Map.of());
    }

    public static ApiResponse created(JsonNode body, String location) {
        return new ApiResponse(201, body, Map.of("Location", location));
    }

    public ApiResponse withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
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
