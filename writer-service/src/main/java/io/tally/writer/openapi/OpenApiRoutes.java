package io.tally.writer.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;

/**
 * {@code GET /openapi.json}: the OpenAPI 3 document of every route the router serves, built once from the route table
 * (so that it holds every route, those added after this one included) on the first request; {@link #check} at the
 * start refuses a route table it could not describe.
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
     * Checks now that the document can describe every route registered so far (no two shapes of one simple class
     * name), so that such a route table fails the start, not the first request; the document itself is still built on
     * the first request, off the function's start.
     *
     * @throws IllegalStateException naming both shapes
     */
    public void check() {
        io.tally.core.http.ShapeNames.check(io.tally.core.http.ShapeNames.of(router));
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
