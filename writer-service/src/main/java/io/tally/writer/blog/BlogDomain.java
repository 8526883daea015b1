package io.tally.writer.blog;

import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;

/**
 * The blog's wiring: its stores over the table, and the routes that use them. The one place of the blog that
 * holds the DynamoDB client; its routes reach the table only through the stores.
 */
public final class BlogDomain {
    private BlogDomain() {
    }

    public static void register(Router router, RouteContext context) {
        UserStore users = new UserStore(context.dynamo(), context.table());
        PostStore posts = new PostStore(context.dynamo(), context.table());
        CommentStore comments = new CommentStore(context.dynamo(), context.table());
        new UserRoutes(context, users).register(router);
        new PostRoutes(context, users, posts).register(router);
        new CommentRoutes(context, posts, comments).register(router);
        new PostProjectionRoutes(context, new PostProjectionStore(context.dynamo(), context.table())).register(router);
    }
}
