package io.tally.domains.catalogue;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A user's journey through the catalogue, as stored. Its rules are the conditions of one transaction
 * ({@link UserItemRequests#put}); which rule refused a write, and whether trying again from a fresh read can
 * succeed, is read here from the cancellation reasons, by the positions that transaction fixes.
 */
record UserItemStore(DynamoDbClient dynamo, String table, ItemStore items) {
    /**
     * Attempts of one put when a concurrent writer got there first. Each lost attempt means another request
     * succeeded, so a few attempts only run out under heavy contention on one item; then 503 asks for a retry.
     */
    static final int MAX_ATTEMPTS = 5;
    static final Set<String> CURSOR_KEY = Set.of(TableSchema.PK, TableSchema.SK);

    /** The user item as written, and whether the user did not have it before. */
    record Written(UserItem item, boolean created) {
    }

    /**
     * Read, then one conditional transaction, retried from the read when a concurrent request changed the item
     * in between. The read only decides what to write; whether it may be written is the transaction's
     * conditions' call, so a stale read costs an attempt, never a rule.
     */
    Written put(String userId, String itemId, UserItemChange change, Supplier<Instant> now) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            VersionedUserItem current = find(userId, itemId);
            if (current != null && current.item().state() == ItemState.COMPLETED) {
                throw completed(userId, itemId);
            }
            CatalogueItem catalogueItem = items.get(itemId);
            UserItem next = change.applyTo(userId, catalogueItem, current == null ? null : current.item(), now.get());
            try {
                dynamo.transactWriteItems(UserItemRequests.put(table, next, current));
            } catch (TransactionCanceledException e) {
                throwUnlessRetryable(e, userId, itemId);
                if (attempt < MAX_ATTEMPTS) {
                    BatchReads.pause(attempt);
                }
                continue;
            }
            return new Written(next, current == null);
        }
        throw ApiException.unavailable("item '" + itemId + "' of user '" + userId
                + "' is being changed by other requests; retry");
    }

    /**
     * One page of a user's list in {@code state}. Entries exist only under existing users (users are never
     * deleted), so only an empty page needs a look at the user: one never written is {@code not_found}.
     */
    QueryPage list(String userId, ItemState state, int limit, Map<String, AttributeValue> start) {
        QueryPage page = QueryPage.of(dynamo.query(UserItemRequests.list(table, userId, state, limit, start)), limit,
                CURSOR_KEY);
        if (page.items().isEmpty() && !userExists(userId)) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return page;
    }

    private VersionedUserItem find(String userId, String itemId) {
        Map<String, AttributeValue> item = dynamo.getItem(UserItemRequests.get(table, userId, itemId)).item();
        return item == null || item.isEmpty() ? null : VersionedUserItem.fromItem(item);
    }

    private boolean userExists(String userId) {
        Map<String, AttributeValue> item = dynamo.getItem(UserItemRequests.user(table, userId)).item();
        return item != null && !item.isEmpty();
    }

    /**
     * Turns a cancelled transaction into the client's answer, or returns when trying again from a fresh read can
     * succeed: the authoritative item changed since the read, or the transaction collided with another one. A
     * definite answer wins over a retry, so the checks run in that order. Anything else (throttling, say)
     * propagates and the API's failure handling answers it.
     */
    static void throwUnlessRetryable(TransactionCanceledException e, String userId, String itemId) {
        if (Transactions.conditionFailed(e, UserItemRequests.USER_CHECK)) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        if (Transactions.conditionFailed(e, UserItemRequests.CATALOGUE_ITEM_CHECK)) {
            throw ItemStore.notFound(itemId);
        }
        if (Transactions.conditionFailed(e, UserItemRequests.AUTHORITATIVE_PUT)
                && ItemState.COMPLETED.value().equals(attribute(e, UserItemRequests.AUTHORITATIVE_PUT, UserItem.STATE))) {
            throw completed(userId, itemId);
        }
        if (Transactions.conditionFailed(e, UserItemRequests.ENTRY_PUT)) {
            String holder = attribute(e, UserItemRequests.ENTRY_PUT, UserItem.ITEM_ID);
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
}
