package io.tally.core.store;

import io.tally.core.Key;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * The read of a whole item as stored, for an item no one record reads ({@link TypedTable} reads the rest): one with
 * attributes of the writer's own beside its record's, or one read by a reader that needs more than the item.
 */
public final class Requests {
    private Requests() {
    }

    /** A strongly consistent read of one item, whole: a write just answered reads back. */
    public static GetItemRequest consistentGet(String table, Key key) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .consistentRead(true)
                .build();
    }
}
