package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.tally.local.lambda.LocalLambdaContext;
import io.tally.local.server.GracefulStop;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local stand-in for an API Gateway HTTP API with a Lambda proxy integration (payload format 2.0) on a
 * {@code $default} route: each HTTP request becomes the {@link APIGatewayV2HTTPEvent} API Gateway would send, and
 * the handler's {@link APIGatewayV2HTTPResponse} becomes the HTTP response.
 *
 * <p>Like API Gateway, the front itself answers only what never reaches the function, and always with the contract's
 * JSON error envelope (never an HTML page, whatever bytes arrive): a request the server cannot read (400, also for
 * an unknown protocol version or transfer coding), a request line or headers above {@link FrontLimits#maxHeaderBytes}
 * (414, 431), a request that does not arrive within the idle timeout (408, or the connection is closed when not even
 * its request line arrived), a body above {@link #MAX_BODY_BYTES} (413), a front that is saturated or shutting down
 * (503 with {@code Retry-After}), and a function that fails instead of answering (500, never with a stack trace).
 *
 * <p>The runner may also mount <em>local routes</em>: paths that exist only on this machine (such as
 * {@code GET /events}, the local event bus's recent events) and are answered by their own handler, built and
 * answered exactly like the function's requests.
 *
 * <p>The server is Jetty (the one DynamoDB Local brings); {@link ApiGatewayEvents} builds the event,
 * {@link LocalRoutes} picks the handler, {@link Responses} writes the answer and {@link EnvelopeErrorHandler} the
 * server's own refusals.
 */
public final class HttpFront implements AutoCloseable {
    /**
     * Bodies above this never reach the handler. It is well above the writer's own 64 KiB limit, so that the
     * writer answers those with its own 413 as it would on AWS, while a runaway client cannot fill the heap.
     */
    public static final int MAX_BODY_BYTES = 1024 * 1024;
    /** API Gateway's integration timeout, used as the function's timeout for {@code getRemainingTimeInMillis}. */
    static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(30);
    /** How long close() lets requests in flight finish. */
    static final Duration GRACE = Duration.ofSeconds(5);
    /** The {@code Retry-After} of a 503, in seconds. */
    static final String RETRY_AFTER_SECONDS = "1";
    /** Server threads beyond the admitted requests: the acceptor, the selector and the quick refusals. */
    private static final int SPARE_THREADS = 8;

    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);

    private final Server server;
    private final ServerConnector connector;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
    private final LocalRoutes localRoutes;
    private final String functionName;
    private final Clock clock;
    /** Admitted requests (running or waiting for a worker); beyond workers + queue a request is a 503. */
    private final Semaphore admitted;
    private final Semaphore workers;
    private final int capacity;
    /** How long a request's body may take to arrive, from the end of its headers. */
    private final Duration bodyTimeout;
    private final GracefulStop calls = new GracefulStop("the HTTP front", GRACE);
    /** Where the front listens, once started (the connector forgets its port when stopped). */
    private volatile int port;
    private volatile InetAddress address;

    private HttpFront(FrontLimits limits, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            LocalRoutes localRoutes, String functionName, Clock clock, String host, int port) {
        this.handler = handler;
        this.localRoutes = localRoutes;
        this.functionName = functionName;
        this.clock = clock;
        this.capacity = limits.workers() + limits.queue();
        this.admitted = new Semaphore(capacity);
        this.workers = new Semaphore(limits.workers(), true);
        this.bodyTimeout = limits.idleTimeout();

        int maxThreads = capacity + SPARE_THREADS;
        // Bounded both ways: admitted requests hold at most `capacity` threads, so the spare ones are left for the
        // refusals; past the pool's queue Jetty drops the connection instead of piling up work.
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, Math.min(4, maxThreads),
                (int) Duration.ofSeconds(30).toMillis(), 0, new BlockingArrayQueue<>(4 * maxThreads), null);
        threads.setName("tally-http");
        threads.setDaemon(true);
        this.server = new Server(threads);

        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // Twice the body's deadline: a stalled body is answered 408 by the front before the server gives up on
        // the connection (which then closes it without an answer, as it does to a client stalled in its headers).
        long idleMillis = 2 * limits.idleTimeout().toMillis();
        http.setIdleTimeout(idleMillis);
        // The raw path goes to the function as sent (API Gateway does not normalise either); the router decodes.
        http.setUriCompliance(UriCompliance.UNSAFE);
        this.connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(idleMillis);
        connector.setReuseAddress(true);
        server.addConnector(connector);
        server.setHandler(new FrontHandler());
        server.setErrorHandler(new EnvelopeErrorHandler());
        server.setStopTimeout(0);
    }

    /**
     * Listens on {@code host:port} (port 0: a free port) and passes every request to {@code handler}.
     *
     * @throws java.net.BindException if the port is taken
     */
    public static HttpFront start(String host, int port, String functionName,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) throws IOException {
        return start(host, port, functionName, handler, Map.of());
    }

    /**
     * As {@link #start(String, int, String, RequestHandler)}, except that a request whose raw path equals a key of
     * {@code localRoutes} (e.g. {@code /events}; the query string does not count) goes to that handler instead of
     * the function. Only an exact match counts, so that a local route never hides the function's own paths below
     * or beside it ({@code /events/1} and {@code /events/} still reach the function).
     *
     * @throws java.net.BindException if the port is taken
     */
    public static HttpFront start(String host, int port, String functionName,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes)
            throws IOException {
        return start(host, port, functionName, handler, localRoutes, FrontLimits.DEFAULTS);
    }

    /** As above, with other {@link FrontLimits} than the defaults. */
    public static HttpFront start(String host, int port, String functionName,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes, FrontLimits limits)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(functionName, "functionName");
        Objects.requireNonNull(limits, "limits");
        LocalRoutes routes = LocalRoutes.of(localRoutes);
        HttpFront front = new HttpFront(limits, handler, routes, functionName, Clock.systemUTC(), host, port);
        try {
            front.server.start();
        } catch (IOException e) {
            front.stopQuietly();
            throw e;
        } catch (Exception e) {
            front.stopQuietly();
            if (e.getCause() instanceof BindException bind) {
                throw bind;
            }
            throw new IOException("the HTTP front did not start: " + e.getMessage(), e);
        }
        front.port = front.connector.getLocalPort();
        front.address = new InetSocketAddress(front.connector.getHost(), front.port).getAddress();
        return front;
    }

    /** The port the front listens on (the chosen one when started with port 0). */
    public int port() {
        return port;
    }

    /** Where a client on this machine reaches the front, e.g. {@code http://127.0.0.1:8080}. */
    public URI baseUri() {
        return URI.create("http://" + clientHost(address) + ":" + port());
    }

    /** Requests admitted now (running or waiting for a worker): for tests that fill the front up. */
    int admittedRequests() {
        return capacity - admitted.availablePermits();
    }

    /** Stops accepting work, lets requests in flight finish for a short grace period, then closes. */
    @Override
    public void close() {
        if (calls.stop()) {
            stopQuietly();
        }
    }

    private void stopQuietly() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the HTTP front did not stop cleanly: {}", e.toString());
        }
    }

    /** Every request that Jetty could read. */
    private final class FrontHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            exchange(request, response, callback);
            return true;
        }
    }

    private void exchange(Request request, Response response, Callback callback) {
        boolean taken = calls.begin();
        long started = System.nanoTime();
        String requestId = ApiGatewayEvents.requestId();
        String method = request.getMethod();
        String rawPath = request.getHttpURI().getPath();
        int status = 0;
        boolean admittedHere = false;
        try {
            response.getHeaders().put("Apigw-Requestid", requestId);
            if (!taken) {
                status = Responses.sendError(response, callback, 503, "unavailable",
                        "the local runner is shutting down; retry");
                return;
            }
            if (!admitted.tryAcquire()) {
                status = Responses.sendError(response, callback, 503, "unavailable",
                        "the local runner is busy (" + capacity + " requests in progress); retry");
                return;
            }
            admittedHere = true;
            byte[] body;
            try {
                body = RequestBodies.read(request).get(bodyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                if (RequestBodies.isTimeout(e)) {
                    response.getHeaders().put(HttpHeader.CONNECTION, "close");
                    status = Responses.sendError(response, callback, FrontErrors.of(408));
                } else {
                    // The client went away (or sent a body the server cannot decode); nobody may be left to answer.
                    LOG.debug("{} {}: reading the body failed: {}", method, rawPath, e.toString());
                    response.getHeaders().put(HttpHeader.CONNECTION, "close");
                    status = Responses.sendError(response, callback, 400, "bad_request",
                            "the request body could not be read");
                }
                return;
            }
            if (body == null) {
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
                status = Responses.sendError(response, callback, FrontErrors.of(413));
                return;
            }
            if (!workers.tryAcquire(FUNCTION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                status = Responses.sendError(response, callback, 503, "unavailable",
                        "the local runner is busy; retry");
                return;
            }
            try {
                status = invoke(request, response, callback, body, requestId);
            } finally {
                workers.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = Responses.sendError(response, callback, 503, "unavailable", "the local runner is stopping; retry");
        } catch (RuntimeException e) { // never a stack trace to the client
            LOG.error("{} {}: the front failed (request {})", method, rawPath, requestId, e);
            if (!response.isCommitted()) {
                status = Responses.sendError(response, callback, 500, "internal", "internal error");
            } else {
                callback.failed(e);
            }
        } finally {
            if (admittedHere) {
                admitted.release();
            }
            calls.end();
            LOG.info("{} {} -> {} ({} ms, request {})", method, rawPath, status == 0 ? "no response" : status,
                    (System.nanoTime() - started) / 1_000_000, requestId);
        }
    }

    private int invoke(Request request, Response response, Callback callback, byte[] body, String requestId) {
        Responses.Reply reply;
        String target = functionName;
        String method = request.getMethod();
        try {
            Instant now = clock.instant();
            APIGatewayV2HTTPEvent event = ApiGatewayEvents.toEvent(ApiGatewayEvents.Request.of(request, body),
                    requestId, now);
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> route = localRoutes.find(event.getRawPath());
            if (route != null) {
                target = LocalRoutes.LOCAL_ROUTE_FUNCTION;
            }
            LocalLambdaContext context = new LocalLambdaContext(target, FUNCTION_TIMEOUT, clock);
            APIGatewayV2HTTPResponse result = (route == null ? handler : route).handleRequest(event, context);
            if (result == null) {
                throw new IllegalStateException("the handler returned no response");
            }
            reply = Responses.Reply.of(result, method);
        } catch (Throwable e) { // whatever fails, the client gets the contract's 500, never a stack trace
            LOG.error("{} {}: {} failed (request {})", method, request.getHttpURI().getPath(), target, requestId, e);
            return Responses.sendError(response, callback, 500, "internal", "internal error");
        }
        return Responses.send(response, callback, reply);
    }

    /** An address a client can connect to: the loopback one when listening on all interfaces. */
    public static String clientHost(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        String literal = address.getHostAddress();
        return literal.contains(":") ? "[" + literal + "]" : literal;
    }
}
