package io.tally.writer.favs;

import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;

/**
 * The wiring of favourites with tags (seed 004): its stores over the table and the routes that use them. The one
 * place of the domain that holds the DynamoDB client.
 */
public final class FavsDomain {
    private FavsDomain() {
    }

    public static void register(Router router, RouteContext context) {
        FavStore favourites = new FavStore(context.dynamo(), context.table());
        TagStore tags = new TagStore(context.dynamo(), context.table());
        new TagRoutes(context, tags, favourites).register(router);
        new FavouriteRoutes(context, favourites, tags).register(router);
        new LinkRoutes(context, favourites, tags).register(router);
    }
}
