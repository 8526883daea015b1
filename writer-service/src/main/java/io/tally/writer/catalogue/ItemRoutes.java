package io.tally.writer.catalogue;

import io.tally.writer.RouteContext;
import io.tally.writer.http.Router;

/** Placeholder: routes not written yet. */
public final class ItemRoutes {
    private final RouteContext context;

    public ItemRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
    }
}
