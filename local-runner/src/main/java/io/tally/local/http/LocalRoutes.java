package io.tally.local.http;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Map;

/**
 * The front's local routes: paths that exist only on this machine (such as {@code GET /events}), each answered by
 * its own handler instead of the function. Only an exact match of the raw path counts (the query string does not),
 * so that a local route never hides the function's own paths below or beside it.
 */
final class LocalRoutes {
    /** The function name a local route's handler sees in its context: it is part of the runner, not a deployment. */
    static final String LOCAL_ROUTE_FUNCTION = "tally-local";

    private final Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> routes;

    private LocalRoutes(Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> routes) {
        this.routes = routes;
    }

    /**
     * Checks that every key is a raw path such as {@code /events} and copies the map.
     *
     * @throws IllegalArgumentException for a key that is not a raw path
     */
    static LocalRoutes of(Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> localRoutes) {
        localRoutes.keySet().forEach(path -> {
            if (!path.startsWith("/") || path.contains("?") || path.contains("#")) {
                throw new IllegalArgumentException("a local route is a raw path such as /events, not '" + path + "'");
            }
        });
        return new LocalRoutes(Map.copyOf(localRoutes));
    }

    /** The handler of the local route at {@code rawPath}; null when the request is the function's. */
    RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> find(String rawPath) {
        return routes.get(rawPath);
    }
}
