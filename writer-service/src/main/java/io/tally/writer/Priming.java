package io.tally.writer;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.crac.Core;
import org.crac.Resource;

/**
 * SnapStart priming of the writer function: before Lambda takes the snapshot, the handler serves a few synthetic
 * requests that are refused before any DynamoDB call (validation failures, an unknown route), so that the
 * snapshot holds the event translation, routing, JSON parsing, validation and error rendering already loaded and
 * initialized; then its DynamoDB client reads a key no item has ({@link io.tally.core.store.SdkPriming}), which
 * primes the SDK's request path (marshalling, signing, the HTTP client). Nothing is written; without SnapStart (no
 * checkpoint) it never runs.
 */
final class Priming implements Resource {
    private static final String JSON = "application/json";

    private final WriterHandler handler;
    private final Runnable afterRestore;

    Priming(WriterHandler handler) {
        this(handler, () -> { });
    }

    Priming(WriterHandler handler, Runnable afterRestore) {
        this.handler = handler;
        this.afterRestore = afterRestore;
    }

    /**
     * Registers the priming of {@code handler} with the global CRaC context; {@code afterRestore} runs after each
     * restore. The caller keeps the returned object: a context need not hold its resources strongly.
     */
    static Priming register(WriterHandler handler, Runnable afterRestore) {
        Priming priming = new Priming(handler, afterRestore);
        Core.getGlobalContext().register(priming);
        return priming;
    }

    /** Serves the synthetic requests; returns their status codes (all 4xx, none reaching DynamoDB). */
    List<Integer> prime() {
        List<Integer> statuses = new ArrayList<>();
        // A user without a name: body parsing, the user validation, the 400 body.
        statuses.add(serve("POST", "/users", "{\"name\":\"\",\"email\":\"priming@example.com\"}"));
        // A change of a user with nothing to change: path parameters, If-Match, the 400 body.
        statuses.add(serve("PATCH", "/users/user-priming", "{}"));
        // A user id that is not an identifier: the path parameter check.
        statuses.add(serve("GET", "/stats/users/not%20an%20id", null));
        // No such route: the router's 404.
        statuses.add(serve("GET", "/priming", null));
        return statuses;
    }

    private int serve(String method, String path, String body) {
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(path)
                .withHeaders(Map.of("content-type", JSON))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method).withPath(path).build())
                        .build())
                .withBody(body)
                .withIsBase64Encoded(false)
                .build();
        return handler.handleRequest(event, null).getStatusCode();
    }

    @Override
    public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
        try {
            handler.unmetered(this::prime);
            handler.primeTableClient();
        } catch (RuntimeException e) {
            // Priming only saves time after a restore; a failure must not fail publishing the version.
            System.err.println("SnapStart priming of the writer function failed: " + e);
        }
    }

    @Override
    public void afterRestore(org.crac.Context<? extends Resource> context) {
        // The DynamoDB client reconnects on its own; secrets read at init may have rotated since the snapshot.
        afterRestore.run();
    }
}
