package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** The HTTP responses of the front: a handler's {@link APIGatewayV2HTTPResponse} or the front's own errors. */
final class Responses {
    static final String JSON = "application/json";

    private Responses() {
    }

    /** Sends the front's own error as {@code {"error":{"code":...,"message":...}}}; returns the status. */
    static int sendError(Response response, Callback callback, int status, String code, String message) {
        return sendError(response, callback, new FrontErrors.FrontError(status, code, message));
    }

    static int sendError(Response response, Callback callback, FrontErrors.FrontError error) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        if (error.status() == 503) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, HttpFront.RETRY_AFTER_SECONDS);
        }
        return send(response, callback, error.status(), error.body(), true);
    }

    /** Sends a checked reply, its headers included; returns the status. */
    static int send(Response response, Callback callback, Reply reply) {
        reply.headers().forEach(header -> response.getHeaders().add(header.getKey(), header.getValue()));
        return send(response, callback, reply.status(), reply.body(), reply.bodyAllowed());
    }

    private static int send(Response response, Callback callback, int status, byte[] body, boolean bodyAllowed) {
        response.setStatus(status);
        if (!bodyAllowed || body.length == 0) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
            response.write(true, null, callback);
        } else {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.write(true, ByteBuffer.wrap(body), callback);
        }
        return status;
    }

    /** A handler's response, checked and decoded before anything is sent, so a bad one can still become a 500. */
    record Reply(int status, List<Map.Entry<String, String>> headers, byte[] body, boolean bodyAllowed) {
        static Reply of(APIGatewayV2HTTPResponse response, String method) {
            // API Gateway, too, takes a response without a status code as 200.
            int status = response.getStatusCode() == 0 ? 200 : response.getStatusCode();
            if (status < 100 || status > 599) {
                throw new IllegalStateException("the handler returned status code " + status);
            }
            List<Map.Entry<String, String>> headers = new ArrayList<>();
            if (response.getHeaders() != null) {
                response.getHeaders().forEach((name, value) -> {
                    if (name != null && value != null && !isFraming(name)) {
                        headers.add(Map.entry(name, value));
                    }
                });
            }
            if (response.getMultiValueHeaders() != null) {
                response.getMultiValueHeaders().forEach((name, values) -> {
                    if (name != null && values != null && !isFraming(name)) {
                        values.stream().filter(v -> v != null).forEach(value -> headers.add(Map.entry(name, value)));
                    }
                });
            }
            if (response.getCookies() != null) {
                response.getCookies().forEach(cookie -> headers.add(Map.entry("Set-Cookie", cookie)));
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
