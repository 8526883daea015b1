package io.tally.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Calls of a writer API over real HTTP, as a client makes them: a JSON body, a bearer token if given; the answer's
 * status, its JSON (null when it is none) and its text. For the tests of a domain of one's own against the local runner.
 *
 * @param base the API's base address, e.g. {@code http://127.0.0.1:8080}
 */
public record ApiCalls(URI base) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** An answer: its status, its JSON (null when the body is not JSON) and its text. */
    public record Reply(int status, JsonNode json, String text) {
        /** The error body's {@code error.code}, or null. */
        public String code() {
            return json == null ? null : json.path("error").path("code").asText(null);
        }
    }

    /**
     * One call.
     *
     * @param body  the JSON body, or null for none
     * @param token a bearer token, or null for none
     */
    public Reply call(String method, String path, String body, String token) {
        try {
            HttpResponse<String> response = send(base, method, path, body, token);
            JsonNode json;
            try {
                json = JSON.readTree(response.body());
            } catch (IOException notJson) {
                json = null;
            }
            return new Reply(response.statusCode(), json, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * One HTTP call to the API at {@code base}, as {@link #call} makes it (a JSON body and a bearer token when given):
     * the raw answer.
     */
    public static HttpResponse<String> send(URI base, String method, String path, String body, String token)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
