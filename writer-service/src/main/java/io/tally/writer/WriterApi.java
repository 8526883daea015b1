package io.tally.writer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Ids;
import io.tally.core.ShardSettings;
import io.tally.writer.dashboard.ActivityRoutes;
import io.tally.writer.dashboard.ActivityStore;
import io.tally.writer.dashboard.DashboardRoutes;
import io.tally.writer.openapi.OpenApiRoutes;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Authorization;
import io.tally.core.http.Caller;
import io.tally.core.http.Cursors;
import io.tally.core.http.ErrorCode;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.PublicEvents;
import io.tally.core.domain.RouteContext;
import io.tally.core.domain.RouteTable;
import io.tally.core.http.Router;
import io.tally.core.view.ViewRoutes;
import io.tally.core.http.Text;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * The writer service as a plain function from request to response: routing, the request size limit, and the
 * translation of failures into the contract's error bodies. A client error is a 4xx with its code; a
 * throttled, timed-out or conflicting call is a 503 the client may retry; anything else is a logged 500 that
 * never shows a stack trace.
 */
public final class WriterApi {
    public static final int MAX_BODY_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(WriterApi.class);

    private final Router router;
    private final Cursors cursors;
    private final ApiMetrics metrics;
    private final Authorization authorization;
    private final java.util.function.BooleanSupplier tablePriming;

    /** With the default shard counts of the derived data. */
    public WriterApi(DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret) {
        this(dynamo, table, clock, cursorSecret, ShardSettings.DEFAULTS);
    }

    /** {@code shards} must be the stream processor's: the read side reads the shards it writes. */
    public WriterApi(DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret, ShardSettings shards) {
        this(dynamo, table, clock, cursorSecret, shards, null);
    }

    /** {@code activityTable}: the subscriber example's feed, for {@code GET /activity}; null: no such route. */
    public WriterApi(DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret, ShardSettings shards,
            String activityTable) {
        this(dynamo, table, clock, cursorSecret, shards, activityTable, Authorization.OPEN);
    }

    /**
     * {@code authorization}: whether each route's declared {@link io.tally.core.http.Access} rule is checked against
     * the caller of the request's verified token claims ({@link Authorization#OPEN}: no checks).
     */
    public WriterApi(DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret, ShardSettings shards,
            String activityTable, Authorization authorization) {
        this(dynamo, table, clock, cursorSecret, shards, activityTable, authorization, new SimpleMeterRegistry());
    }

    /** {@code registry}: where the {@link ApiMetrics} meters go; the domains are those on the class path. */
    public WriterApi(DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret, ShardSettings shards,
            String activityTable, Authorization authorization, MeterRegistry registry) {
        this(DomainRegistry.load(), dynamo, table, clock, cursorSecret, shards, activityTable, authorization, registry);
    }

    /** The routes of these domains, in their order. */
    public WriterApi(DomainRegistry domains, DynamoDbClient dynamo, String table, Clock clock, byte[] cursorSecret,
            ShardSettings shards, String activityTable, Authorization authorization, MeterRegistry registry) {
        this.metrics = new ApiMetrics(registry);
        this.authorization = authorization;
        this.tablePriming = () -> io.tally.core.store.SdkPriming.readNothing(dynamo, table);
        this.router = new Router(authorization);
        this.cursors = new Cursors(cursorSecret);
        RouteContext context = new RouteContext(dynamo, table, clock, Ids.timeOrdered(clock), cursors, shards, domains);
        // Each domain's resources, routes and views' read routes (the registry has checked them as it loaded).
        RouteTable.compose(router, context);
        if (activityTable != null) {
            ActivityRoutes.register(router, new ActivityStore(dynamo, activityTable),
                    PublicEvents.of(domains.events()), authorization.enabled());
        }
        OpenApiRoutes openApi = OpenApiRoutes.register(router);
        // Last: its route list names every route registered before it.
        DashboardRoutes.register(router, domains);
        // The writer's own routes against the domains': two routes of one path, or two shapes of one name, fail the start.
        ViewRoutes.checkUnique(router);
        openApi.check();
    }

    /**
     * Counts each signed-in caller's writes against {@code quota} from now on (429 past it); only with access checks
     * on, as the open mode has no quota.
     */
    public void writeQuota(io.tally.core.http.WriteQuota quota) {
        if (authorization.enabled()) {
            router.writeQuota(quota);
        }
    }

    /** Signs cursors with a rotated secret from now on; those signed with the one before still verify. */
    public void rekeyCursors(byte[] cursorSecret) {
        cursors.rekey(cursorSecret);
    }

    /** Every route with its declared access rule, in registration order (the route table's test reads it). */
    public List<Router.Rule> routeRules() {
        return router.rules();
    }

    /** The OpenAPI 3 document of every route this API serves ({@code GET /openapi.json}). */
    public com.fasterxml.jackson.databind.node.ObjectNode openApi() {
        return OpenApiRoutes.document(router);
    }

    public ApiResponse handle(ApiRequest request) {
        long started = System.nanoTime();
        String[] route = {null};
        Access[] access = {null};
        ApiResponse response = hardened(route(request, route, access), isPublic(access[0]));
        metrics.record(route[0], response, Duration.ofNanos(System.nanoTime() - started));
        return response;
    }

    /**
     * The policy every answer carries: scripts, styles and requests from this origin only (the dashboard has no inline
     * script or style), no framing, no plugins, no base or form targets elsewhere.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /**
     * Every answer with the browser hardening headers ({@link #CONTENT_SECURITY_POLICY}, {@code nosniff}, no referrer,
     * no framing), and {@code Cache-Control: no-store} unless it is public (a read-side route anyone may call) or its
     * route set its own.
     */
    static ApiResponse hardened(ApiResponse response, boolean isPublic) {
        return response.withHeaders(isPublic || response.headers().containsKey("Cache-Control") ? HARDENING
                : HARDENING_NO_STORE);
    }

    /** The headers {@link #hardened} adds, in their order: to a public answer, and to any other. */
    private static final Map<String, String> HARDENING = orderedHeaders(Map.of(), "Content-Security-Policy",
            CONTENT_SECURITY_POLICY, "X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer",
            "X-Frame-Options", "DENY");
    private static final Map<String, String> HARDENING_NO_STORE = orderedHeaders(HARDENING, "Cache-Control",
            "no-store");

    private static Map<String, String> orderedHeaders(Map<String, String> first, String... namesAndValues) {
        Map<String, String> headers = new java.util.LinkedHashMap<>(first);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(headers);
    }

    /** Whether a route's answers are anyone's to see: the read side's, when it is public (or access is off). */
    private boolean isPublic(Access access) {
        return Access.READ_SIDE.equals(access) && (!authorization.enabled() || authorization.publicReadSide());
    }

    /**
     * The answer to a request that could not even be decoded (the front's {@link WriterHandler} refused its body or
     * query string), counted as an unmatched request.
     */
    public ApiResponse refuse(ApiException refusal, Duration latency) {
        ApiResponse response = hardened(ApiResponse.error(refusal), false);
        metrics.record(null, response, latency);
        return response;
    }

    /** The response; {@code route[0]} is set to the template of the matched route, if one matched. */
    private ApiResponse route(ApiRequest request, String[] route, Access[] access) {
        if (!authorization.enabled() && !request.caller().isAnonymous()) {
            // Open: as before access control, whatever claims arrive (no default user id from a token either).
            request = request.withCaller(Caller.ANONYMOUS);
        }
        try {
            if (request.body() != null && request.body().getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
                throw new ApiException(ErrorCode.PAYLOAD_TOO_LARGE,
                        "request body exceeds " + MAX_BODY_BYTES + " bytes", null);
            }
            if (request.body() != null && !Text.isValidUnicode(request.body())) {
                throw ApiException.invalidRequest("request body is not valid UTF-8");
            }
            checkQuery(request);
            Router.Match match = router.match(request.method(), request.path());
            route[0] = match.template();
            access[0] = match.access();
            return match.handler().handle(request.withPathParameters(match.pathParameters()));
        } catch (ApiException e) {
            ApiResponse response = ApiResponse.error(e);
            if (e.code() == ErrorCode.METHOD_NOT_ALLOWED) {
                response = response.withHeader("Allow", String.join(", ", router.allowedMethods(request.path())));
            } else if (e.code() == ErrorCode.UNAUTHORIZED) {
                response = response.withHeader("WWW-Authenticate", "Bearer");
            }
            if (e.retryAfterSeconds() > 0) {
                response = response.withHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
            return response;
        } catch (SdkException e) {
            if (isRetryable(e)) {
                LOG.warn("{} {}: DynamoDB unavailable: {}", request.method(), request.path(), e.toString());
                return ApiResponse.error(ErrorCode.UNAVAILABLE, "the table is busy or did not answer in time; retry", null)
                        .withHeader("Retry-After", "1");
            }
            LOG.error("{} {}: unexpected DynamoDB failure", request.method(), request.path(), e);
            return internal();
        } catch (RuntimeException e) {
            LOG.error("{} {}: unexpected failure", request.method(), request.path(), e);
            return internal();
        }
    }

    /** Every query parameter's name and value is {@link Text} on one line, whether the route reads it or not. */
    private static void checkQuery(ApiRequest request) {
        request.query().forEach((name, value) -> {
            String problem = Text.problem(name, Text.Lines.SINGLE);
            if (problem != null) {
                throw ApiException.badRequest("a query parameter's name " + problem);
            }
            problem = Text.problem(value, Text.Lines.SINGLE);
            if (problem != null) {
                throw ApiException.badRequest("query parameter '" + name + "' " + problem, name);
            }
        });
    }

    private static ApiResponse internal() {
        return ApiResponse.error(ErrorCode.INTERNAL, "internal error", null);
    }

    /** Throttling, timeouts, connection failures, server errors and transaction conflicts pass with time. */
    static boolean isRetryable(SdkException e) {
        if (e instanceof SdkClientException
                || e instanceof ProvisionedThroughputExceededException
                || e instanceof RequestLimitExceededException
                || e instanceof TransactionInProgressException) {
            return true;
        }
        if (e instanceof TransactionCanceledException cancelled && cancelled.hasCancellationReasons()) {
            return cancelled.cancellationReasons().stream().anyMatch(r -> "TransactionConflict".equals(r.code())
                    || "ThrottlingError".equals(r.code())
                    || "ProvisionedThroughputExceeded".equals(r.code()));
        }
        if (e instanceof DynamoDbException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        return e.retryable();
    }

    /**
     * SnapStart priming of the table client's request path ({@link io.tally.core.store.SdkPriming}): one read of a key
     * no item has; whether it was answered.
     */
    public boolean primeTableClient() {
        return tablePriming.getAsBoolean();
    }
}
