package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.UnreachableDynamoDb;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Server-side failures, injected into the real SDK client before anything is sent: the client is told 503 for
 * what passes with time and 500 for the rest, never a stack trace.
 */
class WriterApiFailureTest {
    private final AtomicInteger calls = new AtomicInteger();

    private WriterApi apiFailingWith(Supplier<RuntimeException> failure) {
        DynamoDbClient client = UnreachableDynamoDb.client(request -> {
            calls.incrementAndGet();
            throw failure.get();
        });
        return new WriterApi(client, "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET);
    }

    private static ApiRequest getUser() {
        return new ApiRequest("GET", "/users/u1", Map.of(), Map.of(), Map.of(), null);
    }

    @Test
    void throttled_answers503UnavailableWithRetryAfter() {
        ApiResponse response = apiFailingWith(() -> ProvisionedThroughputExceededException.builder()
                .message("slow down").statusCode(400).build()).handle(getUser());
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.body().at("/error/code").asText()).isEqualTo("unavailable");
        assertThat(response.headers()).containsEntry("Retry-After", "1");
    }

    @Test
    void timedOut_answers503() {
        ApiResponse response = apiFailingWith(() -> ApiCallTimeoutException.create(10_000)).handle(getUser());
        assertThat(response.status()).isEqualTo(503);
    }

    @Test
    void transactionConflict_answers503() {
        ApiResponse response = apiFailingWith(() -> TransactionCanceledException.builder()
                .cancellationReasons(CancellationReason.builder().code("None").build(),
                        CancellationReason.builder().code("TransactionConflict").build())
                .statusCode(400).build()).handle(getUser());
        assertThat(response.status()).isEqualTo(503);
    }

    @Test
    void missingTable_answers500WithoutDetails() {
        ApiResponse response = apiFailingWith(() -> ResourceNotFoundException.builder()
                .message("Requested resource not found: Table: tally not found").statusCode(400).build()).handle(getUser());
        assertThat(response.status()).isEqualTo(500);
        String body = Json.write(response.body());
        assertThat(body).isEqualTo("{\"error\":{\"code\":\"internal\",\"message\":\"internal error\"}}");
    }

    @Test
    void invalidInput_neverReachesTheTable() {
        WriterApi api = apiFailingWith(() -> new IllegalStateException("the table must not be called"));
        ApiResponse response = api.handle(new ApiRequest("POST", "/users", Map.of(), Map.of(), Map.of(), "{\"name\":\"\"}"));
        assertThat(response.status()).isEqualTo(400);
        assertThat(calls).hasValue(0);
    }
}
