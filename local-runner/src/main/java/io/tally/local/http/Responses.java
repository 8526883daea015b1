package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The HTTP responses of the front: a handler's {@link APIGatewayV2HTTPResponse} or the front's own errors. */
final class Responses {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Responses() {
    }

    /** Sends the front's own error as {@code {"error":{"code":...,"message":...}}}; returns the status. */
    static int sendError(HttpExchange exchange, int status, String code, String message) throws IOException {
        ObjectNode error = JSON.createObjectNode();
        error.put("code", code);
        error.put("message", message);
        ObjectNode body = JSON.createObjectNode();
        body.set("error", error);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        return send(exchange, status, JSON.writeValueAsBytes(body), true);
    }

    /** Sends a checked reply, its headers included; returns the status. */
    static int send(HttpExchange exchange, Reply reply) throws IOException {
        reply.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
        return send(exchange, reply.status(), reply.body(), reply.bodyAllowed());
    }

    private static int send(HttpExchange exchange, int status, byte[] body, boolean bodyAllowed) throws IOException {
        if (!bodyAllowed || body.length == 0) {
            // -1: no body at all; 0 would announce a chunked one.
            exchange.sendResponseHeaders(status, -1);
        } else {
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
        return status;
    }

    /** A handler's response, checked and decoded before anything is sent, so a bad one can still become a 500. */
    record Reply(int status, Headers headers, byte[] body, boolean bodyAllowed) {
        static Reply of(APIGatewayV2HTTPResponse response, String method) {
            // API Gateway, too, takes a response without a status code as 200.
            int status = response.getStatusCode() == 0 ? 200 : response.getStatusCode();
            if (status < 100 || status > 599) {
                throw new IllegalStateException("the handler returned status code " + status);
            }
            Headers headers = new Headers();
            if (response.getHeaders() != null) {
                response.getHeaders().forEach((name, value) -> {
                    if (!isFraming(name)) {
                        headers.set(name, value);
                    }
                });
            }
            if (response.getMultiValueHeaders() != null) {
                response.getMultiValueHeaders().forEach((name, values) -> {
                    if (!isFraming(name)) {
                        values.forEach(value -> headers.add(name, value));
                    }
                });
            }
            if (response.getCookies() != null) {
                response.getCookies().forEach(cookie -> headers.add("Set-Cookie", cookie));
            }
            String text = response.getBody();
            byte[] body = text == null ? new byte[0]
                    : response.getIsBase64Encoded() ? Base64.getDecoder().decode(text)
                    : text.getBytes(StandardCharsets.UTF_8);
            boolean bodyAllowed = !"HEAD".equalsIgnoreCase(method) && status >= 200 && status != 204 && status != 304;
            return new Reply(status, headers, body, bodyAllowed);
        }

        /** The front frames the response itself, as API Gateway does; a function's own framing would contradict it. */
        private static boolean isFraming(String name) {
            return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                    || name.equalsIgnoreCase("Connection");
        }
    }
}
