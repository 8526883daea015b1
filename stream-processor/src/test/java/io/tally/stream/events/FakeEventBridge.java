package io.tally.stream.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An EventBridge endpoint for PutEvents only, speaking the AWS JSON 1.1 protocol the SDK uses. It records every
 * request, accepts entries unless told to reject them (by the {@code eventId} in their detail, so that a
 * rejection follows an event across retries), and can answer whole calls with an error.
 */
final class FakeEventBridge implements AutoCloseable {
    static final String PUT_EVENTS_TARGET = "AWSEvents.PutEvents";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received. */
    record Request(String target, String contentType, JsonNode body) {
        List<JsonNode> entries() {
            List<JsonNode> entries = new ArrayList<>();
            body.path("Entries").forEach(entries::add);
            return entries;
        }

        List<String> eventIds() {
            return entries().stream().map(FakeEventBridge::eventId).toList();
        }
    }

    private record CallFailure(int status, String errorType) {}

    private static final class Rejection {
        final String errorCode;
        int remaining;

        Rejection(String errorCode, int remaining) {
            this.errorCode = errorCode;
            this.remaining = remaining;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Request> requests = new ArrayList<>();
    private final List<String> accepted = new ArrayList<>();
    private final Deque<CallFailure> callFailures = new ArrayDeque<>();
    private final Map<String, Rejection> rejections = new HashMap<>();

    private FakeEventBridge(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts listening. Exchanges are taken on a thread each, so that calls a publisher makes at once reach the fake
     * at once; each is then answered under the fake's lock, whole, so its answer is as if the calls came in turn.
     */
    static FakeEventBridge start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fake-eventbridge");
            thread.setDaemon(true);
            return thread;
        });
        FakeEventBridge fake = new FakeEventBridge(server, executor);
        server.createContext("/", fake::handle);
        server.setExecutor(executor);
        server.start();
        return fake;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers the next call (whichever it is) with this status and error type, accepting none of its entries. */
    synchronized void failNextCall(int status, String errorType) {
        callFailures.add(new CallFailure(status, errorType));
    }

    /** Rejects the entry carrying this event id the next {@code times} times it is sent. */
    synchronized void rejectEntry(String eventId, String errorCode, int times) {
        rejections.put(eventId, new Rejection(errorCode, times));
    }

    synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The event ids of the entries accepted, in the order they were accepted. */
    synchronized List<String> accepted() {
        return List.copyOf(accepted);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    static String eventId(JsonNode entry) {
        try {
            return JSON.readTree(entry.path("Detail").asText()).path("eventId").asText(null);
        } catch (IOException e) {
            throw new IllegalStateException("Detail is not JSON: " + entry, e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            byte[] body = exchange.getRequestBody().readAllBytes();
            synchronized (this) {
                if (!"POST".equals(exchange.getRequestMethod()) || !"/".equals(exchange.getRequestURI().getPath())
                        || !PUT_EVENTS_TARGET.equals(target)) {
                    respond(exchange, 400, error("UnknownOperationException", "Only PutEvents is faked"));
                    return;
                }
                Request request = new Request(target, exchange.getRequestHeaders().getFirst("Content-Type"),
                        JSON.readTree(body));
                requests.add(request);
                if (request.entries().size() > 10) {
                    respond(exchange, 400, error("ValidationException", "Entries: at most 10"));
                    return;
                }
                CallFailure failure = callFailures.poll();
                if (failure != null) {
                    respond(exchange, failure.status(), error(failure.errorType(), "Injected by the test"));
                    return;
                }
                respond(exchange, 200, results(request));
            }
        }
    }

    private ObjectNode results(Request request) {
        ObjectNode response = JSON.createObjectNode();
        ArrayNode results = JSON.createArrayNode();
        int failed = 0;
        for (JsonNode entry : request.entries()) {
            String eventId = eventId(entry);
            Rejection rejection = rejections.get(eventId);
            if (rejection != null && rejection.remaining > 0) {
                rejection.remaining--;
                failed++;
                results.addObject().put("ErrorCode", rejection.errorCode).put("ErrorMessage", "Injected by the test");
            } else {
                accepted.add(eventId);
                results.addObject().put("EventId", UUID.randomUUID().toString());
            }
        }
        response.put("FailedEntryCount", failed);
        response.set("Entries", results);
        return response;
    }

    private static ObjectNode error(String type, String message) {
        return JSON.createObjectNode().put("__type", type).put("message", message);
    }

    private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
        exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
