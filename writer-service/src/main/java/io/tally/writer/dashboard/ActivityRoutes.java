package io.tally.writer.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.events.PublicEvents;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /activity?limit=N}: the newest entries of the recent-activity feed that the EventBridge subscriber example
 * keeps ({@link io.tally.core.activity.ActivityFeed}), newest first:
 * {@code {"items": [{"eventId","detailType","time","detail"}]}}. One query of a feed partition, never a scan; the
 * dashboard shows it. Registered only when the feed's table is configured.
 *
 * <p>A read-side route, so it may be public; and a public answer holds public data only (DOMAIN.md, access control).
 * With access control on, an admin reads the whole feed; anyone else (anonymous or signed in) the public feed, which
 * the subscriber keeps of the events about public data, each detail cut down to what a public route shows. The route
 * checks each entry of it again against the same {@link PublicEvents}, so that an entry that is not public (written by
 * an older or a misconfigured subscriber) is left out and a field that is not public is dropped. With access control
 * off (the local default: every route open) everyone reads the whole feed, as every other route is open too.
 */
public final class ActivityRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ActivityStore store;
    private final PublicEvents publicEvents;
    private final boolean byCaller;

    ActivityRoutes(ActivityStore store, PublicEvents publicEvents, boolean byCaller) {
        this.store = store;
        this.publicEvents = publicEvents;
        this.byCaller = byCaller;
    }

    /**
     * Adds {@code GET /activity}, reading the feed through {@code store}.
     *
     * @param byCaller whether access control is on: then only an admin reads the whole feed
     */
    public static void register(Router router, ActivityStore store, PublicEvents publicEvents, boolean byCaller) {
        router.add("GET", "/activity", Access.READ_SIDE, new ActivityRoutes(store, publicEvents, byCaller)::feed);
    }

    ApiResponse feed(ApiRequest request) {
        int limit = Page.limit(request);
        boolean everything = !byCaller || request.caller().isAdmin();
        List<Map<String, AttributeValue>> entries = everything ? store.newest(limit) : store.newestPublic(limit);
        ObjectNode body = Json.object();
        ArrayNode items = body.putArray("items");
        for (Map<String, AttributeValue> item : entries) {
            String detailType = item.get("detailType").s();
            JsonNode detail = detail(item);
            if (!everything) {
                Optional<ObjectNode> shown = publicEvents.publicDetail(detailType, detail);
                if (shown.isEmpty()) {
                    continue;
                }
                detail = shown.get();
            }
            ObjectNode entry = items.addObject();
            entry.put("eventId", item.get("eventId").s());
            entry.put("detailType", detailType);
            entry.put("time", item.get("time").s());
            entry.set("detail", detail);
        }
        return ApiResponse.ok(body).withHeader("Cache-Control", "no-store");
    }

    private static JsonNode detail(Map<String, AttributeValue> item) {
        try {
            JsonNode detail = JSON.readTree(item.get("detail").s());
            return detail != null && detail.isObject() ? detail : Json.object();
        } catch (JsonProcessingException e) {
            return Json.object();
        }
    }
}
