package io.tally.writer.blog;

import io.tally.writer.RouteContext;
import io.tally.writer.http.Router;

/** Placeholder: routes not written yet. */
public final class PostRoutes {
    private final RouteContext context;

    public PostRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
    }
}
