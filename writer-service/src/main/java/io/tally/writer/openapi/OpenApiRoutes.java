package io.tally.writer.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;

/**
 * {@code GET /openapi.json}: the OpenAPI 3 document of every route the router serves, built once from the route table
 * (so that it holds every route, those added after this one included): at the start ({@link #build}), else on the
 * first request.
 */
public final class OpenApiRoutes {
    /** The contract's version, as the document's {@code info.version} gives it. */
    public static final String VERSION = "1.0";
    public static final String PATH = "/openapi.json";

    private final Router router;
    private volatile ObjectNode document;

    private OpenApiRoutes(Router router) {
        this.router = router;
    }

    /** Adds {@code GET /openapi.json}; {@link #build} it once every route is in. */
    public static OpenApiRoutes register(Router router) {
        OpenApiRoutes routes = new OpenApiRoutes(router);
        router.add("GET", PATH, Access.READ_SIDE, request -> ApiResponse.ok(routes.document()))
                .summary("This document: every route, who may call it, what it takes and answers");
        return routes;
    }

    /**
     * Builds the document now, from every route registered so far, so that a route table it cannot describe (two
     * shapes of one name) fails the start, not the first request.
     *
     * @throws IllegalStateException naming what the document cannot hold
     */
    public void build() {
        document = document(router);
    }

    /** The document of every route registered so far. */
    public static ObjectNode document(Router router) {
        return OpenApiDocument.of(router.descriptions(), VERSION);
    }

    private ObjectNode document() {
        ObjectNode built = document;
        if (built == null) {
            built = document(router);
            document = built;
        }
        return built;
    }
}
