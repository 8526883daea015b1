package io.tally.core.domain;

import io.tally.core.Ids;
import io.tally.core.ShardSettings;
import io.tally.core.http.Cursors;
import io.tally.core.http.Router;
import io.tally.core.http.ShapeNames;
import io.tally.core.view.ViewRoutes;
import java.time.Clock;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The domains' routes in one router, in the order the writer serves them: for each domain in the registry's order,
 * its resources ({@link Domain#resources}), its own routes ({@link Domain#routes}), then its views' read routes unless
 * it declared one of the same path itself ({@link ViewRoutes}).
 *
 * <p>The registry composes them once as it loads ({@link #check}), over a table no route reaches, so that two routes
 * of one method and path, or two records the routes answer with of one simple class name, fail the load with the
 * domain named, in every function and command that loads the domains, not only in the writer.
 */
public final class RouteTable {
    private RouteTable() {
    }

    /** Adds the routes of every domain of the context's registry to the router, in the order the writer serves them. */
    public static void compose(Router router, RouteContext context) {
        for (Domain domain : context.registry().domains()) {
            int before = router.descriptions().size();
            Domain.registerResources(domain, router, context);
            domain.routes(router, context);
            List<Router.Description> own = List.copyOf(router.descriptions().subList(before,
                    router.descriptions().size()));
            ViewRoutes.register(router, context.dynamo(), context.table(), context.cursors(), context::exists,
                    domain.views(), own);
            try {
                ViewRoutes.checkUnique(router);
            } catch (IllegalStateException e) {
                throw new IllegalStateException("domain '" + domain.name() + "' (" + domain.getClass().getName()
                        + "): " + e.getMessage(), e);
            }
        }
    }

    /**
     * Composes the registry's routes over a table no route reaches (a store that reads the table as its route is added
     * is refused too: routes are added at a function's start) and refuses what the router and the OpenAPI document
     * could not tell apart.
     *
     * @throws IllegalStateException naming the domain of the second of two routes of one method and path (parameters
     *                               compared by position), or both records of one simple class name
     */
    static void check(DomainRegistry registry) {
        Router router = new Router();
        Clock clock = Clock.systemUTC();
        try {
            compose(router, new RouteContext(unreachable(), "route-check", clock, Ids.timeOrdered(clock),
                    new Cursors(new byte[32]), ShardSettings.DEFAULTS, registry));
        } catch (UnsupportedOperationException e) {
            StackTraceElement[] trace = e.getStackTrace();
            if (trace.length > 0 && trace[0].getClassName().equals(DynamoDbClient.class.getName())) {
                throw new IllegalStateException("a route reached the table (" + trace[0].getMethodName()
                        + ") while the routes were composed: a store reads the table when it is used, not when its"
                        + " route is added", e);
            }
            throw e;
        }
        ShapeNames.check(ShapeNames.of(router));
    }

    /**
     * A client that answers no call: routes are composed, never served, over it. Each call is the interface's own
     * default, which throws {@link UnsupportedOperationException}; a proxy would do the same, but generating one of an
     * interface this large took about a tenth of a function's cold start.
     */
    private static DynamoDbClient unreachable() {
        return new DynamoDbClient() {
            @Override
            public String serviceName() {
                return SERVICE_NAME;
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return "the route check's client, which reaches no table";
            }
        };
    }
}
