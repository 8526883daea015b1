package io.tally.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code GET /metrics}: the local stream processor's meters (the engine's Micrometer meters and the poller's
 * figures as gauges) in Prometheus's text exposition format, e.g. {@code tally_stream_records_total} and
 * {@code tally_poller_records_processed}. A local route of the HTTP front; on AWS the same meters go to CloudWatch
 * as embedded metric format.
 */
final class MetricsHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final Supplier<String> scrape;

    MetricsHandler(Supplier<String> scrape) {
        this.scrape = Objects.requireNonNull(scrape, "scrape");
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = event.getRequestContext() == null || event.getRequestContext().getHttp() == null
                ? "GET" : event.getRequestContext().getHttp().getMethod();
        if (!"GET".equalsIgnoreCase(method) && !"HEAD".equalsIgnoreCase(method)) {
            ApiResponse error = ApiResponse.error(ErrorCode.METHOD_NOT_ALLOWED,
                    method + " is not allowed here; allowed: GET", null).withHeader("Allow", "GET, HEAD");
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", "application/json");
            headers.putAll(error.headers());
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(error.status())
                    .withHeaders(headers)
                    .withBody(Json.write(error.body()))
                    .withIsBase64Encoded(false)
                    .build();
        }
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withHeaders(Map.of("Content-Type", CONTENT_TYPE, "Cache-Control", "no-store"))
                .withBody(scrape.get())
                .withIsBase64Encoded(false)
                .build();
    }
}
