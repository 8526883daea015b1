package io.tally.writer.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.http.Router;

/**
 * {@code GET /activity?limit=N}: the newest entries of the recent-activity feed that the EventBridge subscriber example
 * keeps ({@link io.tally.core.activity.ActivityFeed}), newest first: {@code {"items": [{"eventId","detailType","time","detail"}]}}. One query
 * of the feed's partition, never a scan; the dashboard shows it. Registered only when the feed's table is configured.
 */
public final class ActivityRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ActivityStore store;

    ActivityRoutes(ActivityStore store) {
        this.store = store;
    }

    /** Adds {@code GET /activity}, reading the feed through {@code store}. */
    public static void register(Router router, ActivityStore store) {
        router.add("GET", "/activity", Access.READ_SIDE, new ActivityRoutes(store)::feed);
    }

    ApiResponse feed(ApiRequest request) {
        int limit = Page.limit(request);
        ObjectNode body = Json.object();
        ArrayNode items = body.putArray("items");
        store.newest(limit).forEach(item -> {
            ObjectNode entry = items.addObject();
            entry.put("eventId", item.get("eventId").s());
            entry.put("detailType", item.get("detailType").s());
            entry.put("time", item.get("time").s());
            try {
                entry.set("detail", JSON.readTree(item.get("detail").s()));
            } catch (JsonProcessingException e) {
                entry.putObject("detail");
            }
        });
        return ApiResponse.ok(body).withHeader("Cache-Control", "no-store");
    }
}
