package io.tally.writer.stats;

import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import java.util.List;

/**
 * {@code GET /stats/users/{userId}} and {@code GET /stats/global}: the two derived items every domain counts in.
 * Like the rest of the read side it reads only what the stream processor maintains, by key, never with a scan;
 * so its answers are eventually consistent with the writes.
 */
final class StatsRoutes {
    private final StatsStore stats;
    private final int globalShards;
    private final List<GlobalStatsFields> globalParts;

    StatsRoutes(StatsStore stats, int globalShards, List<GlobalStatsFields> globalParts) {
        this.stats = stats;
        this.globalShards = globalShards;
        this.globalParts = List.copyOf(globalParts);
    }

    void register(Router router) {
        router.add("GET", "/stats/users/{userId}", Access.ownerOrAdmin("userId"), this::userStats)
                .add("GET", "/stats/global", Access.READ_SIDE, this::globalStats);
    }

    ApiResponse userStats(ApiRequest request) {
        String userId = request.id("userId");
        return ApiResponse.ok(StatsJson.userStats(userId, stats.userStats(userId)));
    }

    ApiResponse globalStats(ApiRequest request) {
        return ApiResponse.ok(StatsJson.globalStats(stats.globalStats(globalShards), globalParts));
    }
}
