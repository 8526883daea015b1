package io.tally.domains.catalogue;

import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code PUT /users/{userId}/items/{itemId}} and {@code GET /users/{userId}/items?state=...}: a user's journey
 * through the learning catalogue (seed 003).
 */
final class UserItemRoutes {
    /** Longer than any state; a longer string fails on length before the list of states. */
    private static final int STATE_MAX = 32;
    private static final String STATES =
            Arrays.stream(ItemState.values()).map(ItemState::value).collect(Collectors.joining(", "));

    private final RouteContext context;
    private final UserItemStore userItems;

    UserItemRoutes(RouteContext context, UserItemStore userItems) {
        this.context = context;
        this.userItems = userItems;
    }

    void register(Router router) {
        router.add("PUT", "/users/{userId}/items/{itemId}", Access.owner("userId"), this::put)
                .add("GET", "/users/{userId}/items", Access.ownerOrAdmin("userId"), this::list);
    }

    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        UserItemChange change = change(Body.parse(request.body(), Set.of("state", "progress", "correct", "live")));
        UserItemStore.Written written = userItems.put(userId, itemId, change, context::now);
        if (written.created()) {
            // No Location: the item is read through the user's lists, there is no route of its own.
            return new ApiResponse(201, CatalogueJson.userItem(written.item()), Map.of());
        }
        return ApiResponse.ok(CatalogueJson.userItem(written.item()));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        ItemState state = stateParameter(request.queryParameter("state"));
        int limit = Page.limit(request);
        String scope = UserItemRequests.listScope(userId, state);
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), UserItemStore.CURSOR_KEY);
        QueryPage page = userItems.list(userId, state, limit, start);
        return ApiResponse.ok(Page.body(
                page.items().stream().map(item -> CatalogueJson.userItem(UserItem.fromItem(item))).toList(),
                context.cursors().encode(scope, page.nextKey())));
    }

    private static UserItemChange change(Body body) {
        ItemState state = ItemState.parse(body.requiredString("state", 1, STATE_MAX))
                .orElseThrow(() -> ApiException.validation("state", "'state' must be one of " + STATES));
        BigDecimal progress = body.optionalDecimal("progress", BigDecimal.ZERO, BigDecimal.ONE);
        return new UserItemChange(
                state,
                progress == null ? null : progress.doubleValue(),
                body.optionalBoolean("correct"),
                body.optionalBoolean("live"));
    }

    private static ItemState stateParameter(String value) {
        return ItemState.parse(value).orElseThrow(() ->
                ApiException.badRequest("query parameter 'state' must be one of " + STATES, "state"));
    }
}
