package io.tally.domains.catalogue;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item in one user's journey. The {@link Catalogue#USER_ITEM} item at
 * {@code useritem#<itemId>} is authoritative (its stream records drive the user's stats); the
 * {@link Catalogue#USER_ITEM_ENTRY} copy at {@link #entryKey()} serves the ordered lists. Both change in one
 * transaction. The record is both items ({@link #SCHEMA}, {@link #ENTRY}) and the contract's JSON; the
 * authoritative item and its list entry render alike.
 *
 * @param score     the catalogue item's score when the user item was last written (orders the assigned list)
 * @param enteredAt when the item entered its current state (orders the completed and orphaned lists)
 */
public record UserItem(String userId, String itemId, ItemState state, long score, Double progress,
                       Boolean correct, Boolean live, Instant enteredAt, Instant updatedAt) {
    /** Attribute names that the transaction's conditions compare. */
    public static final String ITEM_ID = "itemId";
    public static final String STATE = "state";

    /** The authoritative item; it reads the list entry too (both hold the same attributes). */
    public static final ItemSchema<UserItem> SCHEMA = ItemSchema.of(UserItem.class, Catalogue.USER_ITEM, UserItem::key)
            .alsoReads(Catalogue.USER_ITEM_ENTRY)
            .build();
    /**
     * The authoritative item only, as the figures read it: a list entry is a copy, and counting it too would count
     * every item twice.
     */
    static final ItemSchema<UserItem> AUTHORITATIVE =
            ItemSchema.of(UserItem.class, Catalogue.USER_ITEM, UserItem::key).build();
    /** The list entry: the same attributes at {@link #entryKey()}. */
    public static final ItemSchema<UserItem> ENTRY =
            ItemSchema.of(UserItem.class, Catalogue.USER_ITEM_ENTRY, UserItem::entryKey).build();

    public Key key() {
        return CatalogueKeys.userItem(userId, itemId);
    }

    public Key entryKey() {
        return CatalogueKeys.entry(userId, state, itemId, score, enteredAt);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public Map<String, AttributeValue> toEntryItem() {
        return ENTRY.toItem(this);
    }

    /** Reads either the authoritative item or its list entry. */
    public static UserItem fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
