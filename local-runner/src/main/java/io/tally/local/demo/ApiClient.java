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
import io.tally.core.demo.DemoApi;

/** A minimal JSON client of the writer API, over real HTTP: what a user with curl does, in Java. */
final class ApiClient implements DemoApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final HttpClient http;

    ApiClient(URI base) {
        this.base = Objects.requireNonNull(base, "base");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    @Override
    public Reply send(String method, String path, Object body) throws IOException, InterruptedException {
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
