package io.tally.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/** A minimal JSON client of the writer API, over real HTTP: what a user with curl does, in Java. */
final class ApiClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** An answer: the status and the parsed body (a missing node when the body is empty or not JSON). */
    record Reply(int status, JsonNode body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private final URI base;
    private final HttpClient http;

    ApiClient(URI base) {
        this.base = Objects.requireNonNull(base, "base");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    Reply post(String path, Object body) throws IOException, InterruptedException {
        return send("POST", path, body);
    }

    Reply put(String path, Object body) throws IOException, InterruptedException {
        return send("PUT", path, body);
    }

    Reply patch(String path, Object body) throws IOException, InterruptedException {
        return send("PATCH", path, body);
    }

    Reply delete(String path) throws IOException, InterruptedException {
        return send("DELETE", path, null);
    }

    /** As {@link #send}, but a status other than 2xx is an exception naming the request and the error. */
    JsonNode expectOk(String method, String path, Object body) throws IOException, InterruptedException {
        Reply reply = send(method, path, body);
        if (!reply.ok()) {
            throw new IOException(method + " " + path + " answered " + reply.status() + ": " + reply.body());
        }
        return reply.body();
    }

    Reply send(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode parsed;
        try {
            parsed = response.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(response.body());
        } catch (IOException e) {
            parsed = MissingNode.getInstance();
        }
        return new Reply(response.statusCode(), parsed);
    }
}
