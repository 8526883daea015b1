package io.tally.writer.catalogue;

import io.tally.core.catalogue.CatalogueItem;
import io.tally.core.catalogue.Selectors;
import io.tally.writer.RouteContext;
import io.tally.writer.http.ApiException;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Body;
import io.tally.writer.http.Router;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** {@code PUT}, {@code GET} and {@code DELETE /items/{itemId}}: the learning catalogue (seed 003). */
public final class ItemRoutes {
    static final int TITLE_MAX = 200;
    /** Longer than any valid selector; a longer string fails on length before the selector rule. */
    static final int SELECTOR_MAX = 64;

    private final RouteContext context;

    public ItemRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
        router.add("PUT", "/items/{itemId}", this::put)
                .add("GET", "/items/{itemId}", this::get)
                .add("DELETE", "/items/{itemId}", this::delete);
    }

    ApiResponse put(ApiRequest request) {
        String itemId = request.id("itemId");
        Body body = Body.parse(request.body(), Set.of("title", "score", "selector"));
        String title = body.optionalString("title", 1, TITLE_MAX);
        long score = body.requiredLong("score", 0, CatalogueItem.MAX_SCORE);
        String selector = body.requiredString("selector", 1, SELECTOR_MAX);
        if (!Selectors.isValid(selector)) {
            throw ApiException.validation("selector", Selectors.describeRule());
        }
        CatalogueItem item = new CatalogueItem(itemId, title, score, selector, context.now());
        Map<String, AttributeValue> old = context.dynamo().putItem(ItemRequests.put(context.table(), item)).attributes();
        if (old == null || old.isEmpty()) {
            return ApiResponse.created(CatalogueJson.item(item), "/items/" + itemId);
        }
        return ApiResponse.ok(CatalogueJson.item(item));
    }

    ApiResponse get(ApiRequest request) {
        String itemId = request.id("itemId");
        Map<String, AttributeValue> item = context.dynamo().getItem(ItemRequests.get(context.table(), itemId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(itemId);
        }
        return ApiResponse.ok(CatalogueJson.item(CatalogueItem.fromItem(item)));
    }

    /**
     * Removes the catalogue item only. A user's items that refer to it stay as they are: they record the
     * user's history, and their score is a copy taken when they were written.
     */
    ApiResponse delete(ApiRequest request) {
        String itemId = request.id("itemId");
        Map<String, AttributeValue> old;
        try {
            old = context.dynamo().deleteItem(ItemRequests.delete(context.table(), itemId)).attributes();
        } catch (ConditionalCheckFailedException e) {
            throw notFound(itemId);
        }
        return ApiResponse.ok(CatalogueJson.item(CatalogueItem.fromItem(old)));
    }

    static ApiException notFound(String itemId) {
        return ApiException.notFound("item '" + itemId + "' does not exist");
    }
}
