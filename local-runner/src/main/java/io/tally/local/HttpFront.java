package io.tally.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tally.local.lambda.LocalLambdaContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
    /** The function name a local route's handler sees in its context: it is part of the runner, not a deployment. */
    static final String LOCAL_ROUTE_FUNCTION = "tally-local";
    /** Beyond this much of an oversized body the connection is dropped rather than read to the end. */
    private static final long DRAIN_LIMIT = 16L * 1024 * 1024;
    private static final int THREADS = 8;
    private static final int QUEUE = 64;

    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US).withZone(ZoneOffset.UTC);

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
    private final Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes;
    private final String functionName;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;

    private HttpFront(HttpServer server, ThreadPoolExecutor executor,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes,
            String functionName, Clock clock) {
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
        localRoutes.keySet().forEach(path -> {
            if (!path.startsWith("/") || path.contains("?") || path.contains("#")) {
                throw new IllegalArgumentException("a local route is a raw path such as /events, not '" + path + "'");
            }
        });
        Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> routes = Map.copyOf(localRoutes);
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
        String requestId = apiGatewayRequestId();
        int status = 0;
        try {
            exchange.getResponseHeaders().set("Apigw-Requestid", requestId);
            if (closing) {
                status = sendError(exchange, 503, "unavailable", "the local runner is shutting down; retry");
                return;
            }
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                exchange.getResponseHeaders().set("Connection", "close");
                status = sendError(exchange, 413, "payload_too_large",
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
        Reply reply;
        String target = functionName;
        try {
            Instant now = clock.instant();
            APIGatewayV2HTTPEvent event = toEvent(new Request(exchange.getRequestMethod(), exchange.getRequestURI(),
                    exchange.getProtocol(), exchange.getRequestHeaders(), body, exchange.getRemoteAddress(),
                    exchange.getLocalAddress()), requestId, now);
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> route = localRoutes.get(event.getRawPath());
            if (route != null) {
                target = LOCAL_ROUTE_FUNCTION;
            }
            LocalLambdaContext context = new LocalLambdaContext(target, UUID.randomUUID().toString(),
                    FUNCTION_TIMEOUT, clock);
            APIGatewayV2HTTPResponse response = (route == null ? handler : route).handleRequest(event, context);
            if (response == null) {
                throw new IllegalStateException("the handler returned no response");
            }
            reply = Reply.of(response, exchange.getRequestMethod());
        } catch (Throwable e) { // whatever fails, the client gets the contract's 500, never a stack trace
            LOG.error("{} {}: {} failed (request {})", exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(), target, requestId, e);
            return sendError(exchange, 500, "internal", "internal error");
        }
        reply.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
        return send(exchange, reply.status(), reply.body(), reply.bodyAllowed());
    }

    /** The request as the front received it: everything an event is built from. */
    record Request(String method, URI uri, String protocol, Map<String, List<String>> headers, byte[] body,
            InetSocketAddress remote, InetSocketAddress local) {
    }

    /** Builds the event API Gateway would send for {@code request}: pure, for a given request id and time. */
    static APIGatewayV2HTTPEvent toEvent(Request request, String requestId, Instant now) {
        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        request.headers().forEach((name, values) -> {
            String key = name.toLowerCase(Locale.ROOT);
            if (key.equals("cookie")) {
                // Payload 2.0 moves cookies out of the headers into their own list.
                values.forEach(value -> splitCookies(value, cookies));
                return;
            }
            headers.merge(key, String.join(",", values), (first, more) -> first + "," + more);
        });
        String sourceIp = request.remote().getAddress().getHostAddress();
        headers.merge("x-forwarded-for", sourceIp, (forwarded, client) -> forwarded + ", " + client);
        headers.putIfAbsent("x-forwarded-port", Integer.toString(request.local().getPort()));
        headers.putIfAbsent("x-forwarded-proto", "http");

        String rawPath = request.uri().getRawPath() == null || request.uri().getRawPath().isEmpty()
                ? "/" : request.uri().getRawPath();
        String rawQuery = request.uri().getRawQuery() == null ? "" : request.uri().getRawQuery();
        String domainName = domainName(headers.get("host"), request.local());

        APIGatewayV2HTTPEvent.APIGatewayV2HTTPEventBuilder event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(rawPath)
                .withRawQueryString(rawQuery)
                .withCookies(cookies.isEmpty() ? null : cookies)
                .withHeaders(headers)
                .withQueryStringParameters(queryParameters(rawQuery))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withRouteKey("$default")
                        .withAccountId(LocalLambdaContext.ACCOUNT_ID)
                        .withStage("$default")
                        .withApiId("local")
                        .withDomainName(domainName)
                        .withDomainPrefix(domainName.split("\\.", 2)[0])
                        .withRequestId(requestId)
                        .withTime(REQUEST_TIME.format(now))
                        .withTimeEpoch(now.toEpochMilli())
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(request.method())
                                .withPath(rawPath)
                                .withProtocol(request.protocol())
                                .withSourceIp(sourceIp)
                                .withUserAgent(headers.getOrDefault("user-agent", ""))
                                .build())
                        .build());
        byte[] body = request.body();
        if (body.length == 0) {
            return event.withIsBase64Encoded(false).build();
        }
        String text = isText(headers.get("content-type")) ? utf8(body) : null;
        if (text != null) {
            return event.withBody(text).withIsBase64Encoded(false).build();
        }
        return event.withBody(Base64.getEncoder().encodeToString(body)).withIsBase64Encoded(true).build();
    }

    /** Decoded parameters, repeated keys joined with a comma as API Gateway does; null when there are none. */
    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            parameters.merge(name, value, (first, more) -> first + "," + more);
        }
        return parameters.isEmpty() ? null : parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // A malformed escape is the function's to judge; hand it over as sent.
            return text;
        }
    }

    private static void splitCookies(String header, List<String> cookies) {
        for (String cookie : header.split(";")) {
            String trimmed = cookie.trim();
            if (!trimmed.isEmpty()) {
                cookies.add(trimmed);
            }
        }
    }

    /**
     * Whether a body of this content type may travel as text; the content must then also be valid UTF-8. Types
     * that are binary by nature (images, archives, octet streams) travel base64-encoded even when their bytes
     * happen to decode, as API Gateway does for binary media.
     */
    static boolean isText(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        String[] parts = contentType.toLowerCase(Locale.ROOT).split(";");
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.startsWith("charset=")) {
                String charset = parameter.substring("charset=".length()).replace("\"", "").trim();
                if (!charset.equals("utf-8") && !charset.equals("utf8") && !charset.equals("us-ascii")) {
                    return false;
                }
            }
        }
        String mediaType = parts[0].trim();
        return mediaType.startsWith("text/")
                || mediaType.endsWith("+json")
                || mediaType.endsWith("+xml")
                || List.of("application/json", "application/xml", "application/javascript",
                        "application/x-www-form-urlencoded", "application/graphql", "application/yaml",
                        "application/x-yaml").contains(mediaType);
    }

    /** The body as text, or null if it is not valid UTF-8 or holds control bytes that no text contains. */
    private static String utf8(byte[] body) {
        for (byte b : body) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
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

    private static String domainName(String host, InetSocketAddress local) {
        if (host == null || host.isBlank()) {
            return clientHost(local.getAddress());
        }
        String name = host.trim();
        if (name.startsWith("[")) {
            int end = name.indexOf(']');
            return end < 0 ? name : name.substring(0, end + 1);
        }
        int colon = name.indexOf(':');
        return colon < 0 ? name : name.substring(0, colon);
    }

    /** An address a client can connect to: the loopback one when listening on all interfaces. */
    static String clientHost(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        String literal = address.getHostAddress();
        return literal.contains(":") ? "[" + literal + "]" : literal;
    }

    /** API Gateway's request ids look like {@code JKJaXmPLvHcESHA=}; the look helps nobody, the uniqueness does. */
    private static String apiGatewayRequestId() {
        byte[] bytes = new byte[11];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static int sendError(HttpExchange exchange, int status, String code, String message) throws IOException {
        ObjectNode error = JSON.createObjectNode();
        error.put("code", code);
        error.put("message", message);
        ObjectNode body = JSON.createObjectNode();
        body.set("error", error);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        return send(exchange, status, JSON.writeValueAsBytes(body), true);
    }

    private static int send(HttpExchange exchange, int status, byte[] body, boolean bodyAllowed) throws IOException {
        if (!bodyAllowed || body.length == 0) {
            // -1: no body at all; 0 would announce a chunked one.
            exchange.sendResponseHeaders(status, -1);
        } else {
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
        return status;
    }

    /** A handler's response, checked and decoded before anything is sent, so a bad one can still become a 500. */
    private record Reply(int status, Headers headers, byte[] body, boolean bodyAllowed) {
        static Reply of(APIGatewayV2HTTPResponse response, String method) {
            // API Gateway, too, takes a response without a status code as 200.
            int status = response.getStatusCode() == 0 ? 200 : response.getStatusCode();
            if (status < 100 || status > 599) {
                throw new IllegalStateException("the handler returned status code " + status);
            }
            Headers headers = new Headers();
            if (response.getHeaders() != null) {
                response.getHeaders().forEach((name, value) -> {
                    if (!isFraming(name)) {
                        headers.set(name, value);
                    }
                });
            }
            if (response.getMultiValueHeaders() != null) {
                response.getMultiValueHeaders().forEach((name, values) -> {
                    if (!isFraming(name)) {
                        values.forEach(value -> headers.add(name, value));
                    }
                });
            }
            if (response.getCookies() != null) {
                response.getCookies().forEach(cookie -> headers.add("Set-Cookie", cookie));
            }
            String text = response.getBody();
            byte[] body = text == null ? new byte[0]
                    : response.getIsBase64Encoded() ? Base64.getDecoder().decode(text)
                    : text.getBytes(StandardCharsets.UTF_8);
            boolean bodyAllowed = !"HEAD".equalsIgnoreCase(method) && status >= 200 && status != 204 && status != 304;
            return new Reply(status, headers, body, bodyAllowed);
        }

        /** The front frames the response itself, as API Gateway does; a function's own framing would contradict it. */
        private static boolean isFraming(String name) {
            return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                    || name.equalsIgnoreCase("Connection");
        }
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
