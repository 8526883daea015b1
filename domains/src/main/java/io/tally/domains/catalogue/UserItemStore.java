package io.tally.domains.catalogue;

import io.tally.core.Items;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.ChangedMeanwhile;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Requests;
import io.tally.core.store.Transaction;
import io.tally.core.store.Transactions;
import io.tally.core.store.TypedTable;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A user's journey through the catalogue, as stored. Its rules are the conditions of one transaction ({@link #write});
 * which rule refused a write, and whether trying again from a fresh read can succeed, is told by its refusals.
 */
final class UserItemStore {
    /**
     * Attempts of one put when a concurrent writer got there first. Each lost attempt means another request
     * succeeded, so a few attempts only run out under heavy contention on one item; then 503 asks for a retry.
     */
    static final int MAX_ATTEMPTS = 5;
    static final Set<String> CURSOR_KEY = Set.of(TableSchema.PK, TableSchema.SK);

    private final DynamoDbClient dynamo;
    private final String table;
    private final ItemStore items;

    UserItemStore(DynamoDbClient dynamo, String table, ItemStore items) {
        this.dynamo = dynamo;
        this.table = table;
        this.items = items;
    }

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
                write(next, current);
            } catch (ChangedMeanwhile | TransactionCanceledException e) {
                // Changed since the read, or collided with another request's transaction: read again and decide anew.
                if (e instanceof TransactionCanceledException cancelled && !Transactions.conflicted(cancelled)) {
                    throw cancelled;
                }
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
     * Writes {@code next} and moves its list entry, in one transaction whose conditions carry every rule, so
     * that no interleaving of concurrent requests can break them:
     * <ul>
     * <li>the user and the catalogue item exist (checked, not read, so a delete in between is seen);</li>
     * <li>the authoritative item is still what {@code current} says: absent for a new one, or at the same
     *     version and not completed (completed is final by condition, not only by the earlier read);</li>
     * <li>the in-progress entry is a single key per user, free or already this item's: one at a time.</li>
     * </ul>
     * The old entry needs no condition: the version check proves it is still the entry of {@code current},
     * because authoritative item and entry only ever change together. A transaction may not touch one item
     * twice, so an entry that keeps its key is only put, never deleted and put.
     *
     * <p>Refusals are answered by {@link #answer}.
     *
     * @param current the item as last read, or null when the user did not have it
     */
    private void write(UserItem next, VersionedUserItem current) {
        Transaction write = Transaction.in(dynamo, table);
        Transaction.Action<?> user = write.requireExists(Users.key(next.userId()));
        Transaction.Action<?> catalogueItem = write.requireExists(CatalogueKeys.catalogueItem(next.itemId()));
        Map<String, AttributeValue> authoritative = new HashMap<>(next.toItem());
        authoritative.put(VersionedUserItem.VERSION, Items.n(current == null ? 1 : current.nextVersion()));
        Transaction.Action<Map<String, AttributeValue>> item = write.put(authoritative,
                current == null ? Condition.absent() : unchanged(current));
        // The slot may hold this very item (new progress on the item in progress), never another one.
        Transaction.Action<Map<String, AttributeValue>> entry = next.state() == ItemState.IN_PROGRESS
                ? write.put(UserItem.ENTRY.toItem(next), Condition.absent().or(Condition.is(UserItem.ITEM_ID,
                        next.itemId())))
                : null;
        if (entry == null) {
            write.put(UserItem.ENTRY, next);
        }
        if (current != null && !current.item().entryKey().equals(next.entryKey())) {
            write.delete(current.item().entryKey());
        }
        write.commit(refused -> answer(next.userId(), next.itemId(), refused.refused(user),
                refused.refused(catalogueItem), refused.refused(item) ? refused.current(item) : null,
                entry != null && refused.refused(entry) ? refused.current(entry) : null));
    }

    /**
     * The answer to a refused {@link #write}, a definite one before a retry: a missing user or catalogue item, the
     * item completed meanwhile, the in-progress slot held by another item (named from the entry the refusal saw);
     * then {@link ChangedMeanwhile} when only the authoritative item changed. Null (the cancellation propagates) when
     * no condition refused.
     *
     * @param itemSeen  the authoritative item its refusal saw, null when its condition did not refuse
     * @param entrySeen the in-progress entry its refusal saw, null when its condition did not refuse
     */
    static RuntimeException answer(String userId, String itemId, boolean userMissing, boolean itemMissing,
                                   Optional<Map<String, AttributeValue>> itemSeen,
                                   Optional<Map<String, AttributeValue>> entrySeen) {
        if (userMissing) {
            return ApiException.notFound("user '" + userId + "' does not exist");
        }
        if (itemMissing) {
            return ItemStore.notFound(itemId);
        }
        if (itemSeen != null && itemSeen.map(seen -> ItemState.COMPLETED.value().equals(string(seen, UserItem.STATE)))
                .orElse(false)) {
            return completed(userId, itemId);
        }
        if (entrySeen != null) {
            String holder = entrySeen.map(seen -> string(seen, UserItem.ITEM_ID)).orElse(null);
            return ApiException.conflict("user '" + userId + "' already has "
                    + (holder == null ? "another item" : "item '" + holder + "'") + " in progress");
        }
        return itemSeen != null ? new ChangedMeanwhile() : null;
    }

    /** The authoritative item is not completed and at the version read (none, for an item written without one). */
    private static Condition unchanged(VersionedUserItem current) {
        return Condition.isNot(UserItem.STATE, ItemState.COMPLETED).and(current.version() == null
                ? Condition.lacks(VersionedUserItem.VERSION)
                : Condition.is(VersionedUserItem.VERSION, current.version()));
    }

    /**
     * One page of a user's list in {@code state}, newest or highest first: the sort keys put the score (zero-padded)
     * or the time the item entered the state right after the prefix; the in-progress list is the single key. Entries
     * exist only under existing users (users are never deleted), so only an empty page needs a look at the user: one
     * never written is {@code not_found}.
     */
    QueryPage list(String userId, ItemState state, int limit, Map<String, AttributeValue> start) {
        Query entries = Query.partition(Users.pk(userId));
        entries = state == ItemState.IN_PROGRESS ? entries.at(CatalogueKeys.entryPrefix(state))
                : entries.startsWith(CatalogueKeys.entryPrefix(state));
        QueryPage page = TypedTable.of(dynamo, table, UserItem.ENTRY).page(entries.backwards(), limit, start,
                CURSOR_KEY);
        if (page.items().isEmpty()
                && DerivedReads.found(dynamo.getItem(DerivedReads.exists(table, Users.key(userId)))) == null) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return page;
    }

    /** A cursor is only good for the list that issued it: same user, same state. */
    static String listScope(String userId, ItemState state) {
        return "user-items\n" + userId + "\n" + state.value();
    }

    private VersionedUserItem find(String userId, String itemId) {
        Map<String, AttributeValue> item = dynamo.getItem(Requests.consistentGet(table, CatalogueKeys.userItem(userId,
                itemId))).item();
        return item == null || item.isEmpty() ? null : VersionedUserItem.fromItem(item);
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    private static ApiException completed(String userId, String itemId) {
        return ApiException.conflict("item '" + itemId + "' of user '" + userId + "' is completed; completed is final");
    }
}
