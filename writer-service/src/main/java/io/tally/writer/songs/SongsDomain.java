package io.tally.writer.songs;

import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;

/**
 * The wiring of songs and downloads (seed 002's aggregation example): its store over the table and the routes that
 * use it. The one place of the domain that holds the DynamoDB client.
 */
public final class SongsDomain {
    private SongsDomain() {
    }

    public static void register(Router router, RouteContext context) {
        new SongRoutes(context, new SongStore(context.dynamo(), context.table())).register(router);
    }
}
