package io.tally.domains.catalogue;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item in one user's journey. The {@link Catalogue#USER_ITEM} item at
 * {@code useritem#<itemId>} is authoritative (its stream records drive the user's stats); the
 * {@link Catalogue#USER_ITEM_ENTRY} copy at {@link #entryKey()} serves the ordered lists. Both change in one
 * transaction.
 *
 * @param score     the catalogue item's score when the user item was last written (orders the assigned list)
 * @param enteredAt when the item entered its current state (orders the completed and orphaned lists)
 */
public record UserItem(String userId, String itemId, ItemState state, long score, Double progress,
                       Boolean correct, Boolean live, Instant enteredAt, Instant updatedAt) {
    /** Attribute names of the item. */
    public static final String USER_ID = "userId";
    public static final String ITEM_ID = "itemId";
    public static final String STATE = "state";
    public static final String SCORE = "score";
    public static final String PROGRESS = "progress";
    public static final String CORRECT = "correct";
    public static final String LIVE = "live";
    public static final String ENTERED_AT = "enteredAt";
    public static final String UPDATED_AT = "updatedAt";


    public Key key() {
        return CatalogueKeys.userItem(userId, itemId);
    }

    public Key entryKey() {
        return CatalogueKeys.entry(userId, state, itemId, score, enteredAt);
    }

    public Map<String, AttributeValue> toItem() {
        return attributes(key(), Catalogue.USER_ITEM);
    }

    public Map<String, AttributeValue> toEntryItem() {
        return attributes(entryKey(), Catalogue.USER_ITEM_ENTRY);
    }

    private Map<String, AttributeValue> attributes(Key key, EntityType entityType) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(entityType));
        item.put(USER_ID, s(userId));
        item.put(ITEM_ID, s(itemId));
        item.put(STATE, s(state.value()));
        item.put(SCORE, n(score));
        if (progress != null) {
            // Plain notation: Double.toString would write 1.0E-5.
            item.put(PROGRESS, AttributeValue.fromN(java.math.BigDecimal.valueOf(progress).toPlainString()));
        }
        if (correct != null) {
            item.put(CORRECT, AttributeValue.fromBool(correct));
        }
        if (live != null) {
            item.put(LIVE, AttributeValue.fromBool(live));
        }
        item.put(ENTERED_AT, ts(enteredAt));
        item.put(UPDATED_AT, ts(updatedAt));
        return item;
    }

    /** Reads either the authoritative item or its list entry. */
    public static UserItem fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Catalogue.USER_ITEM, Catalogue.USER_ITEM_ENTRY);
        String state = Items.string(item, STATE);
        return new UserItem(
                Items.string(item, USER_ID),
                Items.string(item, ITEM_ID),
                ItemState.parse(state).orElseThrow(() -> new MalformedItemException("unknown item state: " + state)),
                Items.number(item, SCORE),
                Items.optionalDecimal(item, PROGRESS),
                Items.optionalBoolean(item, CORRECT),
                Items.optionalBoolean(item, LIVE),
                Items.instant(item, ENTERED_AT),
                Items.instant(item, UPDATED_AT));
    }
}
