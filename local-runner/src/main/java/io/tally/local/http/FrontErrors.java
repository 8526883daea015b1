package io.tally.local.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The errors the front answers itself, before or instead of the function: always the contract's envelope
 * {@code {"error":{"code":...,"message":...}}}. Statuses a client can cause keep their meaning (400, 404, 405, 408,
 * 413, 414, 431, 503); what HTTP calls 501 (an unknown transfer coding) or 505 (an unknown protocol version) is a
 * request the front cannot read, so a 400; any other 4xx is a 400 as well. A 5xx other than 503 can only be a bug
 * of the front and stays a 500 {@code internal}.
 */
final class FrontErrors {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Status and code of the statuses the front keeps. */
    private static final Map<Integer, String> CODES = Map.of(
            400, "bad_request",
            404, "not_found",
            405, "method_not_allowed",
            408, "request_timeout",
            413, "payload_too_large",
            414, "uri_too_long",
            431, "headers_too_large",
            500, "internal",
            503, "unavailable");

    private FrontErrors() {
    }

    /**
     * A path that does not decode (bytes that are not UTF-8, a bad escape): 400 {@code invalid_request}, as the handler
     * answers it (DOMAIN.md's "Input is decoded strictly").
     */
    static FrontError undecodablePath() {
        return new FrontError(400, "invalid_request", "the request's path is not valid UTF-8");
    }

    /** One error as the front sends it. */
    record FrontError(int status, String code, String message) {
        byte[] body() {
            ObjectNode error = JSON.createObjectNode();
            error.put("code", code);
            error.put("message", message);
            ObjectNode body = JSON.createObjectNode();
            body.set("error", error);
            try {
                return JSON.writeValueAsBytes(body);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The error a refusal with this HTTP status becomes; the message is ours, never the server's own text. */
    static FrontError of(int status) {
        int mapped;
        if (CODES.containsKey(status)) {
            mapped = status;
        } else if (status >= 500 && status != 501 && status != 505) {
            mapped = 500;
        } else {
            mapped = 400;
        }
        return new FrontError(mapped, CODES.get(mapped), message(mapped));
    }

    private static String message(int status) {
        return switch (status) {
            case 400 -> "the request is not valid HTTP/1.1 the front can read";
            case 404 -> "no route for this path";
            case 405 -> "this method is not allowed here";
            case 408 -> "the request was not received in time";
            case 413 -> "request body exceeds " + HttpFront.MAX_BODY_BYTES + " bytes";
            case 414 -> "the request line is too long";
            case 431 -> "the request headers are too large";
            case 503 -> "the local runner is busy; retry";
            default -> "internal error";
        };
    }
}
