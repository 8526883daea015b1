package io.tally.writer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Caller;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Text;
import io.tally.core.logging.InvocationLog;
import io.tally.core.logging.LambdaLogging;
import io.tally.core.metrics.EmfMetricsFlusher;
import io.tally.core.metrics.StageTag;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The writer service's Lambda function: API Gateway HTTP API, payload format 2.0. It only translates the event
 * to an {@link ApiRequest} and the {@link ApiResponse} back; {@link WriterApi} does the work.
 */
public final class WriterHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private final WriterApi api;
    /** Where the {@link ApiMetrics} meters go; in Lambda flushed after every invocation. */
    private final MeterRegistry registry;
    private final Runnable flushMetrics;
    /** While priming: the synthetic requests are not the function's traffic, so they are neither flushed nor kept. */
    private volatile boolean unmetered;
    /** SnapStart priming, held here because a CRaC context need not keep its resources reachable. */
    @SuppressWarnings("unused")
    private Priming priming;

    /**
     * Used by Lambda: the client is built once per container, outside the handler method, and the handler primes
     * itself before a SnapStart snapshot ({@link Priming}). The meters are flushed to stdout as CloudWatch embedded
     * metric format after every invocation, as the stream processor's are.
     */
    public WriterHandler() {
        this(LambdaLogging.environment(), System.out);
        priming = Priming.register(this, this::refreshCursorSecret);
    }

    /**
     * As in Lambda, from {@code env}: the meters tagged with the stage ({@link StageTag}), flushed to {@code emf}.
     */
    WriterHandler(Map<String, String> env, PrintStream emf) {
        this(WriterConfig.fromEnvironment(env), StageTag.apply(new SimpleMeterRegistry(), env), emf);
    }

    public WriterHandler(WriterConfig config) {
        this(config, new SimpleMeterRegistry());
    }

    /** Meters into {@code registry} and nothing flushed: the local runner serves that registry at /metrics. */
    public WriterHandler(WriterConfig config, MeterRegistry registry) {
        this(api(config, registry), registry, () -> { });
    }

    /** As in Lambda: the meters of {@code registry} flushed to {@code emf} after every invocation. */
    WriterHandler(WriterConfig config, MeterRegistry registry, PrintStream emf) {
        this(api(config, registry), registry, new EmfMetricsFlusher(registry, emf)::flush);
    }

    WriterHandler(WriterApi api) {
        this(api, new SimpleMeterRegistry(), () -> { });
    }

    WriterHandler(WriterApi api, MeterRegistry registry, Runnable flushMetrics) {
        this.api = api;
        this.registry = registry;
        this.flushMetrics = flushMetrics;
    }

    private static WriterApi api(WriterConfig config, MeterRegistry registry) {
        software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamo = DynamoDbClients.create(config);
        WriterApi api = new WriterApi(config.domains(), dynamo, config.tableName(), Clock.systemUTC(),
                config.cursorSecret(), config.shards(), config.activityTable(), config.authorization(), registry);
        if (config.writeQuota() != null) {
            api.writeQuota(new io.tally.core.quota.DynamoDbWriteQuota(dynamo, config.writeQuota().table(),
                    config.writeQuota().rates(), Clock.systemUTC()));
        }
        return api;
    }

    /** SnapStart priming of the DynamoDB client's request path: one read of a key no item has ({@link WriterApi}). */
    boolean primeTableClient() {
        return api.primeTableClient();
    }

    /** Runs {@code work} (SnapStart priming) without its requests counting: nothing flushed, the meters dropped after. */
    void unmetered(Runnable work) {
        unmetered = true;
        try {
            work.run();
        } finally {
            registry.clear();
            unmetered = false;
        }
    }

    /**
     * Reads the cursor secret again (after a SnapStart restore: the snapshot may predate a rotation); keeps the one it
     * has when the secret cannot be read.
     */
    private void refreshCursorSecret() {
        Map<String, String> env = System.getenv();
        if (env.get(CursorSecrets.ARN) == null) {
            return;
        }
        try {
            api.rekeyCursors(CursorSecrets.read(env, CursorSecrets.secretsManager(WriterConfig.region(env))));
        } catch (RuntimeException e) {
            System.err.println("the cursor secret could not be read again after a restore; keeping the one read"
                    + " before: " + e);
        }
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        try (InvocationLog log = InvocationLog.open(context == null ? null : context.getAwsRequestId())) {
            return isOptions(event) ? preflight() : respond(event);
        } finally {
            if (!unmetered) {
                flushMetrics.run();
            }
        }
    }

    private static boolean isOptions(APIGatewayV2HTTPEvent event) {
        return event.getRequestContext() != null && event.getRequestContext().getHttp() != null
                && "OPTIONS".equalsIgnoreCase(event.getRequestContext().getHttp().getMethod());
    }

    /**
     * The template's Preflight route (OPTIONS on any path, no authorizer): API Gateway answers CORS preflights itself
     * from the API's CORS configuration; should one reach the function, 204 lets API Gateway add those headers. It is
     * not routed (a 401, 404 or 405 would fail the browser's preflight), read or counted.
     */
    private static APIGatewayV2HTTPResponse preflight() {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(204).withIsBase64Encoded(false).build();
    }

    private APIGatewayV2HTTPResponse respond(APIGatewayV2HTTPEvent event) {
        long started = System.nanoTime();
        ApiResponse response;
        try {
            // handle() answers every ApiException itself: only toRequest's refusals arrive below.
            response = api.handle(toRequest(event));
        } catch (ApiException e) {
            response = api.refuse(e, Duration.ofNanos(System.nanoTime() - started));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", ApiResponse.JSON_CONTENT_TYPE);
        headers.putAll(response.headers());
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(response.status())
                .withHeaders(headers)
                .withBody(response.bodyText())
                .withIsBase64Encoded(false)
                .build();
    }

    /**
     * The request of an event, its body and query string decoded strictly ({@link #body}, {@link #query}).
     *
     * @throws ApiException a {@code bad_request} (or {@code payload_too_large}) when they do not decode
     */
    static ApiRequest toRequest(APIGatewayV2HTTPEvent event) {
        String method = event.getRequestContext() != null && event.getRequestContext().getHttp() != null
                ? event.getRequestContext().getHttp().getMethod()
                : null;
        Map<String, String> headers = new LinkedHashMap<>();
        if (event.getHeaders() != null) {
            // A header without a name or value (possible in a hand-made event) is no header: ApiRequest's copies
            // would throw on it, which must not turn into a 500.
            event.getHeaders().forEach((name, value) -> {
                if (name != null && value != null) {
                    headers.put(name.toLowerCase(Locale.ROOT), value);
                }
            });
        }
        return new ApiRequest(
                method == null ? "" : method.toUpperCase(Locale.ROOT),
                event.getRawPath() == null ? "/" : event.getRawPath(),
                Map.of(),
                query(event),
                headers,
                body(event),
                caller(event));
    }

    /**
     * The decoded query parameters of the event ({@code queryStringParameters}), after checking that the query string
     * as the client sent it ({@code rawQueryString}) decodes strictly: every {@code %} an escape, the bytes UTF-8, no
     * control character ({@link Text#percentDecode}). API Gateway has already decoded the parameters, so only the raw
     * text shows what the bytes were. The decoded values are checked again by {@link WriterApi}.
     */
    static Map<String, String> query(APIGatewayV2HTTPEvent event) {
        String raw = event.getRawQueryString();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                String decodedName;
                try {
                    decodedName = Text.percentDecode(name);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("a query parameter's name " + e.getMessage());
                }
                if (equals >= 0) {
                    try {
                        Text.percentDecode(pair.substring(equals + 1));
                    } catch (IllegalArgumentException e) {
                        throw ApiException.badRequest("query parameter '" + decodedName + "' " + e.getMessage(),
                                decodedName);
                    }
                }
            }
        }
        Map<String, String> query = new LinkedHashMap<>();
        if (event.getQueryStringParameters() != null) {
            event.getQueryStringParameters().forEach((name, value) -> {
                if (name != null) {
                    query.put(name, value == null ? "" : value);
                }
            });
        }
        return query;
    }

    /**
     * The body as text. API Gateway sends it as text or, flagged {@code isBase64Encoded}, as base64 (binary media, or
     * text it would not pass as a string); base64 is decoded and the bytes must then be UTF-8, strictly: a
     * malformed or overlong sequence or an encoded surrogate is a {@code bad_request}, never a replacement character.
     * A text body is checked for lone surrogates by {@link WriterApi}, after its size.
     */
    static String body(APIGatewayV2HTTPEvent event) {
        String body = event.getBody();
        if (body == null || !event.getIsBase64Encoded()) {
            return body;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            // API Gateway never sends one; a hand-made event might.
            throw ApiException.invalidRequest("request body is not valid base64");
        }
        if (bytes.length > WriterApi.MAX_BODY_BYTES) {
            throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE,
                    "request body exceeds " + WriterApi.MAX_BODY_BYTES + " bytes", null);
        }
        try {
            return Text.decodeUtf8(bytes);
        } catch (CharacterCodingException e) {
            throw ApiException.invalidRequest("request body is not valid UTF-8");
        }
    }

    /**
     * The caller of the claims API Gateway's JWT authorizer verified ({@code requestContext.authorizer.jwt}); nothing
     * else of the event (headers, body) names a caller. No authorizer on the route: anonymous. The
     * {@code authorization} header, the token the authorizer verified, is read only to tell the names of a list claim
     * apart ({@link Caller#fromClaims(Map, java.util.List, String)}).
     */
    static Caller caller(APIGatewayV2HTTPEvent event) {
        APIGatewayV2HTTPEvent.RequestContext context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getJwt() == null) {
            return Caller.ANONYMOUS;
        }
        APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT jwt = context.getAuthorizer().getJwt();
        String authorization = null;
        if (event.getHeaders() != null) {
            for (Map.Entry<String, String> header : event.getHeaders().entrySet()) {
                if (header.getKey() != null && header.getKey().equalsIgnoreCase("authorization")) {
                    authorization = header.getValue();
                }
            }
        }
        return Caller.fromClaims(jwt.getClaims(), jwt.getScopes(), authorization);
    }
}
