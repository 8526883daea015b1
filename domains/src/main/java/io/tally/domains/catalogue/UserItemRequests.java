package io.tally.domains.catalogue;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;

import io.tally.core.TableSchema;
import io.tally.core.store.Requests;
import io.tally.core.users.Users;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/** Pure builders of the user item requests; tested by comparing the requests they build. */
final class UserItemRequests {
    /*
     * Positions of the actions in the transaction, fixed so that a cancellation reason (reported per action, in
     * request order) names its cause. The optional delete of the old entry goes last for that reason.
     */
    static final int USER_CHECK = 0;
    static final int CATALOGUE_ITEM_CHECK = 1;
    static final int AUTHORITATIVE_PUT = 2;
    static final int ENTRY_PUT = 3;
    static final int OLD_ENTRY_DELETE = 4;

    private UserItemRequests() {
    }

    static GetItemRequest get(String table, String userId, String itemId) {
        return Requests.consistentGet(table, CatalogueKeys.userItem(userId, itemId));
    }

    /** Whether the user exists; the key is all that is needed. */
    static GetItemRequest user(String table, String userId) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(Users.key(userId).toAttributeMap())
                .projectionExpression(TableSchema.PK)
                .consistentRead(true)
                .build();
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
     * @param current the item as last read, or null when the user did not have it
     */
    static TransactWriteItemsRequest put(String table, UserItem next, VersionedUserItem current) {
        List<TransactWriteItem> actions = new ArrayList<>();
        actions.add(Requests.existsAction(table, Users.key(next.userId())));
        actions.add(Requests.existsAction(table, CatalogueKeys.catalogueItem(next.itemId())));
        actions.add(TransactWriteItem.builder().put(authoritativePut(table, next, current)).build());
        actions.add(TransactWriteItem.builder().put(entryPut(table, next)).build());
        if (current != null && !current.item().entryKey().equals(next.entryKey())) {
            actions.add(TransactWriteItem.builder().delete(Delete.builder()
                    .tableName(table)
                    .key(current.item().entryKey().toAttributeMap())
                    .build()).build());
        }
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    private static Put authoritativePut(String table, UserItem next, VersionedUserItem current) {
        Map<String, AttributeValue> item = new HashMap<>(next.toItem());
        item.put(VersionedUserItem.VERSION, n(current == null ? 1 : current.nextVersion()));
        Put.Builder put = Put.builder()
                .tableName(table)
                .item(item)
                // The old image tells "completed meanwhile" (409) from "changed meanwhile" (retry).
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
        if (current == null) {
            return put.conditionExpression("attribute_not_exists(pk)").build();
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":completed", s(ItemState.COMPLETED.value()));
        String version;
        if (current.version() == null) {
            version = "attribute_not_exists(" + VersionedUserItem.VERSION + ")";
        } else {
            version = VersionedUserItem.VERSION + " = :version";
            values.put(":version", n(current.version()));
        }
        return put.conditionExpression("#state <> :completed AND " + version)
                .expressionAttributeNames(Map.of("#state", UserItem.STATE))
                .expressionAttributeValues(values)
                .build();
    }

    private static Put entryPut(String table, UserItem next) {
        Put.Builder put = Put.builder().tableName(table).item(next.toEntryItem());
        if (next.state() != ItemState.IN_PROGRESS) {
            return put.build();
        }
        // The slot may hold this very item (new progress on the item in progress), never another one.
        return put.conditionExpression("attribute_not_exists(pk) OR " + UserItem.ITEM_ID + " = :itemId")
                .expressionAttributeValues(Map.of(":itemId", s(next.itemId())))
                // The old image names the item that holds the slot, for the 409's message.
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    /**
     * One page of a user's list in {@code state}. Every list reads newest or highest first: the sort keys put
     * the score (zero-padded) or the time the item entered the state right after the prefix. The in-progress
     * list is the single key. Reads are consistent so that a client sees its own writes.
     */
    static QueryRequest list(String table, String userId, ItemState state, int limit,
                             Map<String, AttributeValue> exclusiveStartKey) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pk", s(Users.pk(userId)));
        values.put(":sk", s(CatalogueKeys.entryPrefix(state)));
        String keyCondition = state == ItemState.IN_PROGRESS ? "pk = :pk AND sk = :sk" : "pk = :pk AND begins_with(sk, :sk)";
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(keyCondition)
                .expressionAttributeValues(values)
                .scanIndexForward(false)
                // One more than the page: whether it comes back tells if a next page exists.
                .limit(limit + 1)
                .consistentRead(true)
                .exclusiveStartKey(exclusiveStartKey)
                .build();
    }

    /** A cursor is only good for the list that issued it: same user, same state. */
    static String listScope(String userId, ItemState state) {
        return "user-items\n" + userId + "\n" + state.value();
    }
}
