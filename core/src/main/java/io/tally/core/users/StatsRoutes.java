package io.tally.core.users;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.SharedCounter;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Router;
import io.tally.core.read.StatsJson;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /stats/users/{userId}} and {@code GET /stats/global}: the two derived items every domain counts in,
 * shown with every domain's shared counters in the registry's order, each at its declared path. Like the rest of the
 * read side it reads only what the stream processor maintains, by key, never with a scan; so its answers are
 * eventually consistent with the writes. A counter not there yet reads as zero.
 */
record StatsRoutes(StatsStore stats, int globalShards, DomainRegistry registry) {
    void register(Router router) {
        router.add("GET", "/stats/users/{userId}", Access.ownerOrAdmin("userId"), this::userStats)
                    .summary("A user's totals, counted by every domain")
                .add("GET", "/stats/global", Access.READ_SIDE, this::globalStats)
                    .summary("The application's totals, every domain's figures");
    }

    ApiResponse userStats(ApiRequest request) {
        String userId = request.id("userId");
        Map<String, AttributeValue> item = stats.userStats(userId);
        StatsJson.check(item, Users.USER_STATS.entityType());
        ObjectNode json = Json.object();
        json.put(Users.USER_STATS_USER_ID, userId);
        render(json, registry.sharedCounters(Users.USER_STATS), List.of(item == null ? Map.of() : item));
        return ApiResponse.ok(json);
    }

    /** Every slot summed. */
    ApiResponse globalStats(ApiRequest request) {
        List<Map<String, AttributeValue>> slots = stats.globalStats(globalShards);
        slots.forEach(slot -> StatsJson.check(slot, Users.GLOBAL_STATS.entityType()));
        ObjectNode json = Json.object();
        render(json, registry.sharedCounters(Users.GLOBAL_STATS), slots);
        return ApiResponse.ok(json);
    }

    /** Each counter, summed over the items, at its path; a nested object is made where its first counter stands. */
    static void render(ObjectNode json, List<SharedCounter> counters, List<Map<String, AttributeValue>> items) {
        for (SharedCounter counter : counters) {
            ObjectNode parent = json;
            for (String name : counter.path().subList(0, counter.path().size() - 1)) {
                parent = parent.has(name) ? (ObjectNode) parent.get(name) : parent.putObject(name);
            }
            long sum = 0;
            for (Map<String, AttributeValue> item : items) {
                sum = Math.addExact(sum, StatsJson.counter(item, counter.attribute()));
            }
            parent.put(counter.path().get(counter.path().size() - 1), sum);
        }
    }
}
