package io.tally.writer.stats;

import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;
import java.util.List;

/**
 * The shared read side's wiring. Unlike a domain's, it takes the domains' parts of the global totals: the
 * totals item is shared, its shape is not (see {@link GlobalStatsFields}).
 */
public final class StatsDomain {
    private StatsDomain() {
    }

    /** @param globalParts each domain's part of {@code GET /stats/global}, in the order of the domains */
    public static void register(Router router, RouteContext context, List<GlobalStatsFields> globalParts) {
        new StatsRoutes(new StatsStore(context.dynamo(), context.table()), context.shards().global(), globalParts)
                .register(router);
    }
}
