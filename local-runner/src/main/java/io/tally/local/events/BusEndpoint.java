package io.tally.local.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.tally.local.server.GracefulStop;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local event bus's HTTP side ({@link LocalEventBus}): one exchange at a time, its body read within a bound, its
 * caller checked when the bus knows its callers ({@link CallerCheck}), then PutEvents processed and its accepted
 * events routed before the answer, in the AWS JSON protocol EventBridge speaks.
 */
final class BusEndpoint {
    /**
     * Bodies above this are not read. Ten entries within the size limit fit with room to spare even when every
     * character of their details needs escaping, and a runaway client cannot fill the heap.
     */
    static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";

    private static final Logger LOG = LoggerFactory.getLogger(LocalEventBus.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PutEvents putEvents;
    private final EventRouter router;
    private final GracefulStop calls;
    /** Null when any caller is taken. */
    private final CallerCheck callers;

    BusEndpoint(PutEvents putEvents, EventRouter router, GracefulStop calls, CallerCheck callers) {
        this.putEvents = putEvents;
        this.router = router;
        this.calls = calls;
        this.callers = callers;
    }

    /** An HTTP answer: status and an AWS JSON body. */
    record Reply(int status, ObjectNode body) {
    }

    void exchange(HttpExchange exchange) {
        boolean taken = calls.begin();
        String requestId = UUID.randomUUID().toString();
        try {
            exchange.getResponseHeaders().set("x-amzn-RequestId", requestId);
            Reply reply;
            if (!taken) {
                reply = new Reply(503, PutEvents.errorBody("ServiceUnavailableException",
                        "the local runner is shutting down; retry"));
            } else {
                byte[] body = readBody(exchange.getRequestBody());
                if (body == null) {
                    exchange.getResponseHeaders().set("Connection", "close");
                    reply = new Reply(413, PutEvents.errorBody("RequestEntityTooLargeException",
                            "the request body exceeds " + MAX_BODY_BYTES + " bytes"));
                } else {
                    Optional<CallerCheck.Refusal> refusal = callers == null ? Optional.empty()
                            : callers.refusal(exchange.getRequestMethod(), signedUri(exchange),
                                    exchange.getRequestHeaders(), body);
                    if (refusal.isPresent()) {
                        LOG.warn("PutEvents refused: {}: {}", refusal.get().type(), refusal.get().message());
                        reply = new Reply(refusal.get().status(), PutEvents.errorBody(refusal.get().type(),
                                refusal.get().message()));
                    } else {
                        reply = answer(exchange.getRequestMethod(),
                                exchange.getRequestHeaders().getFirst("X-Amz-Target"),
                                exchange.getRequestHeaders().getFirst("Content-Type"), body);
                    }
                }
            }
            byte[] bytes = JSON.writeValueAsBytes(reply.body());
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException e) {
            // The client went away; there is nobody left to answer.
            LOG.debug("PutEvents {}: connection failed: {}", requestId, e.toString());
        } catch (RuntimeException e) {
            LOG.error("PutEvents {} failed", requestId, e);
            sendQuietly(exchange, new Reply(500, PutEvents.errorBody("InternalException", "internal error")));
        } finally {
            exchange.close();
            calls.end();
        }
    }

    /**
     * Answers one HTTP request: a PutEvents call is processed and its accepted events delivered before the
     * answer; anything else is an operation this endpoint does not know.
     */
    Reply answer(String method, String target, String contentType, byte[] body) {
        if (!"POST".equalsIgnoreCase(method) || target == null || !isAwsJson(contentType)) {
            return new Reply(400, PutEvents.errorBody("UnknownOperationException", "this is a local EventBridge "
                    + "endpoint: POST with X-Amz-Target " + PutEvents.TARGET + " and Content-Type " + CONTENT_TYPE
                    + "; the events it received are at GET /events on the writer API's port"));
        }
        if (!PutEvents.TARGET.equals(target)) {
            return new Reply(400, PutEvents.errorBody("UnknownOperationException",
                    target + " is not served here; the local event bus serves " + PutEvents.TARGET
                            + ", its rules are files (infra/events/rules)"));
        }
        PutEvents.Result result = putEvents.execute(body);
        if (result instanceof PutEvents.Rejected rejected) {
            LOG.info("PutEvents rejected: {}: {}", rejected.type(), rejected.message());
            return new Reply(400, rejected.body());
        }
        PutEvents.Accepted accepted = (PutEvents.Accepted) result;
        for (ObjectNode event : accepted.events()) {
            router.route(event);
        }
        LOG.info("PutEvents: {} entries, {} accepted, {} failed", accepted.entries().size(), accepted.events().size(),
                accepted.failedEntryCount());
        return new Reply(200, accepted.body());
    }

    /** The request's address as its caller signed it: the host it named, the path and query as sent. */
    private static URI signedUri(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        URI sent = exchange.getRequestURI();
        try {
            return URI.create("http://" + (host == null ? "127.0.0.1" : host) + sent.getRawPath()
                    + (sent.getRawQuery() == null ? "" : "?" + sent.getRawQuery()));
        } catch (IllegalArgumentException e) {
            // A Host no signer could have signed: the signature check refuses the request.
            return URI.create("http://host.invalid/");
        }
    }

    /** The SDKs send {@code application/x-amz-json-1.1}; 1.0 is the same wire format under an older name. */
    private static boolean isAwsJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals(CONTENT_TYPE) || mediaType.equals("application/x-amz-json-1.0");
    }

    /** The body, or null when it exceeds {@link #MAX_BODY_BYTES}. */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        return body.length <= MAX_BODY_BYTES ? body : null;
    }

    private static void sendQuietly(HttpExchange exchange, Reply reply) {
        try {
            byte[] bytes = JSON.writeValueAsBytes(reply.body());
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException | RuntimeException e) {
            // Headers already sent, or the client gone: the log line above is all that is left to give.
            LOG.debug("cannot send the error answer", e);
        }
    }
}
