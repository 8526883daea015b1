package io.tally.writer.catalogue;

import io.tally.core.TableSchema;
import io.tally.core.catalogue.CatalogueItem;
import io.tally.core.catalogue.ItemState;
import io.tally.core.catalogue.UserItem;
import io.tally.writer.RouteContext;
import io.tally.writer.http.ApiException;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Body;
import io.tally.writer.http.Page;
import io.tally.writer.http.Router;
import io.tally.writer.store.QueryPage;
import io.tally.writer.store.Transactions;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * {@code PUT /users/{userId}/items/{itemId}} and {@code GET /users/{userId}/items?state=...}: a user's journey
 * through the learning catalogue (seed 003).
 */
public final class UserItemRoutes {
    /**
     * Attempts of one PUT when a concurrent writer got there first. Each lost attempt means another request
     * succeeded, so a few attempts only run out under heavy contention on one item; then 503 asks for a retry.
     */
    static final int MAX_ATTEMPTS = 5;
    /** Longer than any state; a longer string fails on length before the list of states. */
    private static final int STATE_MAX = 32;
    private static final Set<String> CURSOR_KEY = Set.of(TableSchema.PK, TableSchema.SK);
    private static final String STATES =
            Arrays.stream(ItemState.values()).map(ItemState::value).collect(Collectors.joining(", "));

    private final RouteContext context;

    public UserItemRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
        router.add("PUT", "/users/{userId}/items/{itemId}", this::put)
                .add("GET", "/users/{userId}/items", this::list);
    }

    /**
     * Read, then one conditional transaction, retried from the read when a concurrent request changed the item
     * in between. The read only decides what to write; whether it may be written is the transaction's
     * conditions' call (see {@link UserItemRequests#put}), so a stale read costs an attempt, never a rule.
     */
    ApiResponse put(ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        UserItemChange change = change(Body.parse(request.body(), Set.of("state", "progress", "correct", "live")));
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            VersionedUserItem current = readUserItem(userId, itemId);
            if (current != null && current.item().state() == ItemState.COMPLETED) {
                throw completed(userId, itemId);
            }
            CatalogueItem catalogueItem = readCatalogueItem(itemId);
            UserItem next = change.applyTo(userId, catalogueItem, current == null ? null : current.item(), context.now());
            try {
                context.dynamo().transactWriteItems(UserItemRequests.put(context.table(), next, current));
            } catch (TransactionCanceledException e) {
                throwUnlessRetryable(e, userId, itemId);
                if (attempt < MAX_ATTEMPTS) {
                    pause(attempt);
                }
                continue;
            }
            if (current == null) {
                // No Location: the item is read through the user's lists, there is no route of its own.
                return new ApiResponse(201, CatalogueJson.userItem(next), Map.of());
            }
            return ApiResponse.ok(CatalogueJson.userItem(next));
        }
        throw ApiException.unavailable("item '" + itemId + "' of user '" + userId
                + "' is being changed by other requests; retry");
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        ItemState state = stateParameter(request.queryParameter("state"));
        int limit = Page.limit(request);
        String scope = UserItemRequests.listScope(userId, state);
        Map<String, AttributeValue> start = context.cursors().decode(scope, request.queryParameter("cursor"), CURSOR_KEY);
        QueryPage page = QueryPage.of(
                context.dynamo().query(UserItemRequests.list(context.table(), userId, state, limit, start)),
                limit, CURSOR_KEY);
        // Entries exist only under existing users (users are never deleted), so only an empty page needs a look.
        if (page.items().isEmpty() && !userExists(userId)) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
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

    private VersionedUserItem readUserItem(String userId, String itemId) {
        Map<String, AttributeValue> item =
                context.dynamo().getItem(UserItemRequests.get(context.table(), userId, itemId)).item();
        return item == null || item.isEmpty() ? null : VersionedUserItem.fromItem(item);
    }

    private CatalogueItem readCatalogueItem(String itemId) {
        Map<String, AttributeValue> item = context.dynamo().getItem(ItemRequests.get(context.table(), itemId)).item();
        if (item == null || item.isEmpty()) {
            throw ItemRoutes.notFound(itemId);
        }
        return CatalogueItem.fromItem(item);
    }

    private boolean userExists(String userId) {
        Map<String, AttributeValue> item = context.dynamo().getItem(UserItemRequests.user(context.table(), userId)).item();
        return item != null && !item.isEmpty();
    }

    /**
     * Turns a cancelled transaction into the client's answer, or returns when trying again from a fresh read can
     * succeed: the authoritative item changed since the read, or the transaction collided with another one. A
     * definite answer wins over a retry, so the checks run in that order. Anything else (throttling, say)
     * propagates and {@link io.tally.writer.WriterApi} answers it.
     */
    static void throwUnlessRetryable(TransactionCanceledException e, String userId, String itemId) {
        if (Transactions.conditionFailed(e, UserItemRequests.USER_CHECK)) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        if (Transactions.conditionFailed(e, UserItemRequests.CATALOGUE_ITEM_CHECK)) {
            throw ItemRoutes.notFound(itemId);
        }
        if (Transactions.conditionFailed(e, UserItemRequests.AUTHORITATIVE_PUT)
                && ItemState.COMPLETED.value().equals(attribute(e, UserItemRequests.AUTHORITATIVE_PUT, "state"))) {
            throw completed(userId, itemId);
        }
        if (Transactions.conditionFailed(e, UserItemRequests.ENTRY_PUT)) {
            String holder = attribute(e, UserItemRequests.ENTRY_PUT, "itemId");
            throw ApiException.conflict("user '" + userId + "' already has "
                    + (holder == null ? "another item" : "item '" + holder + "'") + " in progress");
        }
        boolean retryable = Transactions.conditionFailed(e, UserItemRequests.AUTHORITATIVE_PUT)
                || (e.hasCancellationReasons()
                        && e.cancellationReasons().stream().anyMatch(r -> Transactions.CONFLICT.equals(r.code())));
        if (!retryable) {
            throw e;
        }
    }

    private static String attribute(TransactionCanceledException e, int action, String name) {
        Map<String, AttributeValue> item = Transactions.oldItem(e, action);
        AttributeValue value = item == null ? null : item.get(name);
        return value == null ? null : value.s();
    }

    private static ApiException completed(String userId, String itemId) {
        return ApiException.conflict("item '" + itemId + "' of user '" + userId + "' is completed; completed is final");
    }

    /** Jittered and growing, so that requests that collided do not collide again in step. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while waiting to retry");
        }
    }
}
