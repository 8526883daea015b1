package io.tally.writer.catalogue;

import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;

/**
 * The catalogue's wiring: its stores over the table, and the routes that use them. The one place of the
 * catalogue that holds the DynamoDB client; its routes reach the table only through the stores.
 */
public final class CatalogueDomain {
    private CatalogueDomain() {
    }

    public static void register(Router router, RouteContext context) {
        ItemStore items = new ItemStore(context.dynamo(), context.table());
        new ItemRoutes(context, items).register(router);
        new UserItemRoutes(context, new UserItemStore(context.dynamo(), context.table(), items)).register(router);
        new SelectorRoutes(context, new SelectorStore(context.dynamo(), context.table())).register(router);
    }
}
