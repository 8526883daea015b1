package io.tally.writer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tally.core.http.ApiResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * The writer's meters, one series per route template (never per path, so ids do not multiply the series):
 * <ul>
 *   <li>{@code tally.api.requests{route,status}}: answered requests;</li>
 *   <li>{@code tally.api.latency{route}}: time from the request to its response, in the function;</li>
 *   <li>{@code tally.api.errors{route,code}}: answers with an error body, by the contract's error code.</li>
 * </ul>
 * A request that matches no route (an unknown path, a method the path does not have, a body refused before routing)
 * counts under the route {@value #UNMATCHED}. In Lambda the registry is flushed as CloudWatch embedded metric format
 * after every invocation; locally the runner serves it at {@code GET /metrics}.
 */
public final class ApiMetrics {
    public static final String REQUESTS = "tally.api.requests";
    public static final String LATENCY = "tally.api.latency";
    public static final String ERRORS = "tally.api.errors";
    /** The route of a request no route matched. */
    public static final String UNMATCHED = "unmatched";

    private final MeterRegistry registry;

    public ApiMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Records one answered request. */
    void record(String route, ApiResponse response, Duration latency) {
        String template = route == null ? UNMATCHED : route;
        Counter.builder(REQUESTS).description("requests answered by the writer API, by route template and status")
                .tag("route", template).tag("status", Integer.toString(response.status()))
                .register(registry).increment();
        Timer.builder(LATENCY).description("time the writer API took to answer, by route template")
                .tag("route", template).register(registry).record(latency);
        String code = errorCode(response);
        if (code != null) {
            Counter.builder(ERRORS).description("error answers of the writer API, by route template and error code")
                    .tag("route", template).tag("code", code).register(registry).increment();
        }
    }

    /** The contract's error code of an error response; null for a success. */
    private static String errorCode(ApiResponse response) {
        if (response.status() < 400 || response.body() == null) {
            return null;
        }
        String code = response.body().path("error").path("code").asText("");
        return code.isEmpty() ? "unknown" : code;
    }
}
