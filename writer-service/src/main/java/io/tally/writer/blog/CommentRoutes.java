package io.tally.writer.blog;

import io.tally.writer.RouteContext;
import io.tally.writer.http.Router;

/** Placeholder: routes not written yet. */
public final class CommentRoutes {
    private final RouteContext context;

    public CommentRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
    }
}
