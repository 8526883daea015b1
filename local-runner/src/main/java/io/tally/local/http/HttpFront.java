package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tally.local.lambda.LocalLambdaContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local stand-in for an API Gateway HTTP API with a Lambda proxy integration (payload format 2.0) on a
 * {@code $default} route: each HTTP request becomes the {@link APIGatewayV2HTTPEvent} API Gateway would send, and
 * the handler's {@link APIGatewayV2HTTPResponse} becomes the HTTP response.
 *
 * <p>Like API Gateway, the front itself answers only what never reaches the function: a body above its hard cap
 * (413) and a function that fails instead of answering (500, never with a stack trace).
 *
 * <p>The runner may also mount <em>local routes</em>: paths that exist only on this machine (such as
 * {@code GET /events}, the local event bus's recent events) and are answered by their own handler, built and
 * answered exactly like the function's requests.
 *
 * <p>The front runs the server and hands each exchange over; {@link ApiGatewayEvents} builds the event,
 * {@link LocalRoutes} picks the handler and {@link Responses} writes the answer.
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
    /** Beyond this much of an oversized body the connection is dropped rather than read to the end. */
    private static final long DRAIN_LIMIT = 16L * 1024 * 1024;
    private static final int THREADS = 8;
    private static final int QUEUE = 64;

    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
    private final LocalRoutes localRoutes;
    private final String functionName;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;

    private HttpFront(HttpServer server, ThreadPoolExecutor executor,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            LocalRoutes localRoutes, String functionName, Clock clock) {
        this.server = server;
        this.executor = executor;
        this.handler = handler;
        this.localRoutes = localRoutes;
        this.functionName = functionName;
        this.clock = clock;
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
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(functionName, "functionName");
        LocalRoutes routes = LocalRoutes.of(localRoutes);
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        // Bounded both ways: past the queue the dispatcher drops the connection instead of piling up work.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), threadFactory(), new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
        HttpFront front = new HttpFront(server, executor, handler, routes, functionName, Clock.systemUTC());
        server.createContext("/", front::exchange);
        server.setExecutor(executor);
        server.start();
        return front;
    }

    /** The port the front listens on (the chosen one when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Where a client on this machine reaches the front, e.g. {@code http://127.0.0.1:8080}. */
    public URI baseUri() {
        return URI.create("http://" + clientHost(server.getAddress().getAddress()) + ":" + port());
    }

    /** Stops accepting work, lets requests in flight finish for a short grace period, then closes. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        long deadline = System.nanoTime() + GRACE.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            sleep(10);
        }
        if (inFlight.get() > 0) {
            LOG.warn("{} request(s) still running after {} s; closing anyway", inFlight.get(), GRACE.toSeconds());
        }
        // stop(0): the grace period above already waited, and only for requests actually in flight.
        server.stop(0);
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void exchange(HttpExchange exchange) {
        inFlight.incrementAndGet();
        long started = System.nanoTime();
        String requestId = ApiGatewayEvents.requestId();
        int status = 0;
        try {
            exchange.getResponseHeaders().set("Apigw-Requestid", requestId);
            if (closing) {
                status = Responses.sendError(exchange, 503, "unavailable", "the local runner is shutting down; retry");
                return;
            }
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                exchange.getResponseHeaders().set("Connection", "close");
                status = Responses.sendError(exchange, 413, "payload_too_large",
                        "request body exceeds " + MAX_BODY_BYTES + " bytes");
                return;
            }
            status = invoke(exchange, body, requestId);
        } catch (IOException e) {
            // The client went away; there is nobody left to answer.
            LOG.debug("{} {}: connection failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
        } finally {
            exchange.close();
            inFlight.decrementAndGet();
            LOG.info("{} {} -> {} ({} ms, request {})", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    status == 0 ? "no response" : status, (System.nanoTime() - started) / 1_000_000, requestId);
        }
    }

    private int invoke(HttpExchange exchange, byte[] body, String requestId) throws IOException {
        Responses.Reply reply;
        String target = functionName;
        try {
            Instant now = clock.instant();
            APIGatewayV2HTTPEvent event = ApiGatewayEvents.toEvent(new ApiGatewayEvents.Request(
                    exchange.getRequestMethod(), exchange.getRequestURI(), exchange.getProtocol(),
                    exchange.getRequestHeaders(), body, exchange.getRemoteAddress(), exchange.getLocalAddress()),
                    requestId, now);
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> route = localRoutes.find(event.getRawPath());
            if (route != null) {
                target = LocalRoutes.LOCAL_ROUTE_FUNCTION;
            }
            LocalLambdaContext context = new LocalLambdaContext(target, UUID.randomUUID().toString(),
                    FUNCTION_TIMEOUT, clock);
            APIGatewayV2HTTPResponse response = (route == null ? handler : route).handleRequest(event, context);
            if (response == null) {
                throw new IllegalStateException("the handler returned no response");
            }
            reply = Responses.Reply.of(response, exchange.getRequestMethod());
        } catch (Throwable e) { // whatever fails, the client gets the contract's 500, never a stack trace
            LOG.error("{} {}: {} failed (request {})", exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(), target, requestId, e);
            return Responses.sendError(exchange, 500, "internal", "internal error");
        }
        return Responses.send(exchange, reply);
    }

    /** The body, or null when it exceeds {@link #MAX_BODY_BYTES} (the rest is drained so the client reads the 413). */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        if (body.length <= MAX_BODY_BYTES) {
            return body;
        }
        long skipped = 0;
        byte[] buffer = new byte[64 * 1024];
        int read;
        while (skipped < DRAIN_LIMIT && (read = in.read(buffer)) >= 0) {
            skipped += read;
        }
        return null;
    }

    /** An address a client can connect to: the loopback one when listening on all interfaces. */
    public static String clientHost(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        String literal = address.getHostAddress();
        return literal.contains(":") ? "[" + literal + "]" : literal;
    }

    private static ThreadFactory threadFactory() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "tally-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
