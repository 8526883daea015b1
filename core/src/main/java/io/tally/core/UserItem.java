package io.tally.core;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item in one user's journey. The {@link EntityType#USER_ITEM} item at
 * {@code useritem#<itemId>} is authoritative (its stream records drive the user's stats); the
 * {@link EntityType#USER_ITEM_ENTRY} copy at {@link #entryKey()} serves the ordered lists. Both change in one
 * transaction.
 *
 * @param score     the catalogue item's score when the user item was last written (orders the assigned list)
 * @param enteredAt when the item entered its current state (orders the completed and orphaned lists)
 */
public record UserItem(String userId, String itemId, ItemState state, long score, Double progress,
                       Boolean correct, Boolean live, Instant enteredAt, Instant updatedAt) {

    public Key key() {
        return Keys.userItem(userId, itemId);
    }

    public Key entryKey() {
        return Keys.entry(userId, state, itemId, score, enteredAt);
    }

    public Map<String, AttributeValue> toItem() {
        return attributes(key(), EntityType.USER_ITEM);
    }

    public Map<String, AttributeValue> toEntryItem() {
        return attributes(entryKey(), EntityType.USER_ITEM_ENTRY);
    }

    private Map<String, AttributeValue> attributes(Key key, EntityType entityType) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(entityType));
        item.put("userId", s(userId));
        item.put("itemId", s(itemId));
        item.put("state", s(state.value()));
        item.put("score", n(score));
        if (progress != null) {
            // Plain notation: Double.toString would write 1.0E-5.
            item.put("progress", AttributeValue.fromN(java.math.BigDecimal.valueOf(progress).toPlainString()));
        }
        if (correct != null) {
            item.put("correct", AttributeValue.fromBool(correct));
        }
        if (live != null) {
            item.put("live", AttributeValue.fromBool(live));
        }
        item.put("enteredAt", ts(enteredAt));
        item.put("updatedAt", ts(updatedAt));
        return item;
    }

    /** Reads either the authoritative item or its list entry. */
    public static UserItem fromItem(Map<String, AttributeValue> item) {
        EntityType entityType = Items.entityType(item);
        if (entityType != EntityType.USER_ITEM && entityType != EntityType.USER_ITEM_ENTRY) {
            throw new MalformedItemException("expected a user item but found " + entityType.attributeValue());
        }
        String state = Items.string(item, "state");
        return new UserItem(
                Items.string(item, "userId"),
                Items.string(item, "itemId"),
                ItemState.parse(state).orElseThrow(() -> new MalformedItemException("unknown item state: " + state)),
                Items.number(item, "score"),
                Items.optionalDecimal(item, "progress"),
                Items.optionalBoolean(item, "correct"),
                Items.optionalBoolean(item, "live"),
                Items.instant(item, "enteredAt"),
                Items.instant(item, "updatedAt"));
    }
}
