package io.tally.domains.catalogue;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Json;
import io.tally.core.http.Router;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code PUT /users/{userId}/items/{itemId}} and {@code GET /users/{userId}/items?state=...}: a user's journey
 * through the learning catalogue (seed 003).
 */
record UserItemRoutes(RouteContext context, UserItemStore userItems) {
    /** Longer than any state; a longer string fails on length before the list of states. */
    private static final int STATE_MAX = 32;
    /** Digits after the decimal point of a progress: 0.123456789012345 is fine, 1e-131 is not. */
    static final int PROGRESS_DECIMALS = 15;
    private static final String STATES =
            Arrays.stream(ItemState.values()).map(ItemState::value).collect(Collectors.joining(", "));
    /** One of the states ({@link #STATES}), which {@link #change} checks. */
    private static final Field<String> STATE = Field.string("state", 1, STATE_MAX).required();
    private static final Field<BigDecimal> PROGRESS = Field.decimal("progress", BigDecimal.ZERO, BigDecimal.ONE,
            PROGRESS_DECIMALS);
    private static final Field<Boolean> CORRECT = Field.bool("correct");
    private static final Field<Boolean> LIVE = Field.bool("live");
    /** The body of {@code PUT /users/{userId}/items/{itemId}}. */
    private static final Fields FIELDS = Fields.of(STATE, PROGRESS, CORRECT, LIVE);

    void register(Router router) {
        router.add("PUT", "/users/{userId}/items/{itemId}", Access.owner("userId"), this::put)
                    .summary("Put a catalogue item of a user in a state (201 new to the user, 200 changed)")
                    .body(FIELDS).returns(201, UserItem.class)
                .add("GET", "/users/{userId}/items", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A user's items in one state: assigned by score, completed and orphaned newest first")
                    .query("state").page(UserItem.class);
    }

    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        UserItemChange change = change(Body.parse(request.body(), FIELDS));
        UserItemStore.Written written = userItems.put(userId, itemId, change, context::now);
        if (written.created()) {
            // No Location: the item is read through the user's lists, there is no route of its own.
            return new ApiResponse(201, Json.tree(written.item()), Map.of());
        }
        return ApiResponse.ok(written.item());
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        ItemState state = stateParameter(request.queryParameter("state"));
        return context.page(request, UserItemStore.listScope(userId, state), UserItemStore.CURSOR_KEY,
                (limit, start) -> userItems.list(userId, state, limit, start), UserItem::fromItem);
    }

    private static UserItemChange change(Body body) {
        ItemState state = ItemState.parse(body.get(STATE))
                .orElseThrow(() -> ApiException.validation("state", "'state' must be one of " + STATES));
        BigDecimal progress = body.get(PROGRESS);
        return new UserItemChange(
                state,
                progress == null ? null : exactDouble(progress),
                body.get(CORRECT),
                body.get(LIVE));
    }

    /**
     * The progress as the double it is kept as. With at most {@link #PROGRESS_DECIMALS} decimals in 0..1 it has at
     * most 15 significant digits, which a double holds exactly (and stores back as the same decimal); the check makes
     * sure, so that a progress is refused rather than stored altered.
     */
    private static double exactDouble(BigDecimal progress) {
        double value = progress.doubleValue();
        if (BigDecimal.valueOf(value).compareTo(progress) != 0) {
            throw ApiException.validation("progress", "'progress' " + progress + " cannot be kept exactly");
        }
        return value;
    }

    private static ItemState stateParameter(String value) {
        return ItemState.parse(value).orElseThrow(() ->
                ApiException.badRequest("query parameter 'state' must be one of " + STATES, "state"));
    }
}
