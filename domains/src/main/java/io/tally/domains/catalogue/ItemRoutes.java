package io.tally.domains.catalogue;

import io.tally.core.Timestamps;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.Set;

/** {@code PUT}, {@code GET} and {@code DELETE /items/{itemId}}: the learning catalogue (seed 003). */
final class ItemRoutes {
    static final int TITLE_MAX = 200;
    /** Longer than any valid selector; a longer string fails on length before the selector rule. */
    static final int SELECTOR_MAX = 64;

    private final RouteContext context;
    private final ItemStore items;

    ItemRoutes(RouteContext context, ItemStore items) {
        this.context = context;
        this.items = items;
    }

    void register(Router router) {
        router.add("PUT", "/items/{itemId}", Access.ADMIN, this::put)
                .add("GET", "/items/{itemId}", Access.SIGNED_IN, this::get)
                .add("DELETE", "/items/{itemId}", Access.ADMIN, this::delete);
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
        // One reading of the clock: the contract's updatedAt (milliseconds) and the revision (microseconds).
        Instant now = context.clock().instant();
        CatalogueItem item = new CatalogueItem(itemId, title, score, selector, Timestamps.truncate(now), 0);
        // The revision is bookkeeping of the stream processor: the response renders the contract's fields only.
        if (items.put(item, now)) {
            return ApiResponse.created(CatalogueJson.item(item), "/items/" + itemId);
        }
        return ApiResponse.ok(CatalogueJson.item(item));
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(CatalogueJson.item(items.get(request.id("itemId"))));
    }

    ApiResponse delete(ApiRequest request) {
        return ApiResponse.ok(CatalogueJson.item(items.delete(request.id("itemId"))));
    }
}
