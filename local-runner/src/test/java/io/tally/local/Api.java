package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The runner's HTTP API for the pipeline tests: real HTTP, JSON bodies, and the rebuild oracle over its table. */
public final class Api {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Generous: a drain normally takes well under a second, but CI machines stall. */
    public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    public record Reply(int status, JsonNode json, String text) {
    }

    private final URI base;

    public Api(URI base) {
        this.base = base;
    }

    public Reply call(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), BodyHandlers.ofString());
            JsonNode json;
            try {
                json = JSON.readTree(response.body());
            } catch (IOException notJson) {
                json = null;
            }
            return new Reply(response.statusCode(), json, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A write or read that must succeed; returns its JSON. */
    public JsonNode ok(String method, String path, String body) {
        Reply reply = call(method, path, body);
        assertThat(reply.status()).as(method + " " + path + ": " + reply.text()).isBetween(200, 299);
        return reply.json();
    }

    public JsonNode get(String path) {
        return ok("GET", path, null);
    }

    /** The ids of {@code field} in the {@code items} of a list answer, in order. */
    public static List<String> ids(JsonNode list, String field) {
        List<String> ids = new ArrayList<>();
        list.path("items").forEach(item -> ids.add(item.path(field).asText()));
        return ids;
    }

    /** Recomputes every derived item from the base items of the runner's table and compares. */
    public static VerificationReport verify(LocalRunner runner) {
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .endpointOverride(runner.dynamoDbEndpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
             DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder()
                .endpointOverride(runner.dynamoDbEndpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            return new Rebuilder(dynamo, streams, runner.tableName(), DomainRegistry.load().derivations(ShardSettings.DEFAULTS),
                    2).verify();
        }
    }
}
