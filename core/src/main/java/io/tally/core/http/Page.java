package io.tally.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** List paging of the contract: {@code limit} 1..100 (default 25) and {@code {"items": [...], "cursor": ...}}. */
public final class Page {
    public static final int DEFAULT_LIMIT = 25;
    public static final int MAX_LIMIT = 100;
    /** A whole number as the contract writes one: ASCII digits, no sign, no spaces, short enough for an int. */
    static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("[0-9]{1,9}");

    private Page() {
    }

    public static int limit(ApiRequest request) {
        return limit(request, DEFAULT_LIMIT);
    }

    /**
     * The {@code limit} query parameter, 1..100 in ASCII digits (no sign, no spaces), or {@code defaultLimit} without
     * one.
     */
    public static int limit(ApiRequest request, int defaultLimit) {
        String value = request.queryParameter("limit");
        if (value == null) {
            return defaultLimit;
        }
        // ASCII digits only: Java's parser also takes a sign and other scripts' digits ("+5", "\uFF11").
        if (!DIGITS.matcher(value).matches()) {
            throw ApiException.badRequest("limit must be a whole number 1.." + MAX_LIMIT, "limit");
        }
        int limit = Integer.parseInt(value);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badRequest("limit must be a whole number 1.." + MAX_LIMIT, "limit");
        }
        return limit;
    }

    public static ObjectNode body(List<? extends JsonNode> items, String cursor) {
        ObjectNode body = Json.object();
        ArrayNode array = body.putArray("items");
        items.forEach(array::add);
        if (cursor == null) {
            body.putNull("cursor");
        } else {
            body.put("cursor", cursor);
        }
        return body;
    }
}
