package io.tally.writer.catalogue;

import io.tally.writer.RouteContext;
import io.tally.writer.http.Router;

/** Placeholder: routes not written yet. */
public final class UserItemRoutes {
    private final RouteContext context;

    public UserItemRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
    }
}
