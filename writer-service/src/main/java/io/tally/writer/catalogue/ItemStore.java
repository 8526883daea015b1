package io.tally.writer.catalogue;

import io.tally.core.catalogue.CatalogueItem;
import io.tally.writer.http.ApiException;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** Where the old image of a catalogue item write becomes the client's answer (created or replaced, found or not). */
final class ItemStore {
    private final DynamoDbClient dynamo;
    private final String table;

    ItemStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** Creates or replaces the item; true when it did not exist before. */
    boolean put(CatalogueItem item) {
        Map<String, AttributeValue> old = dynamo.putItem(ItemRequests.put(table, item)).attributes();
        return old == null || old.isEmpty();
    }

    CatalogueItem get(String itemId) {
        Map<String, AttributeValue> item = dynamo.getItem(ItemRequests.get(table, itemId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(itemId);
        }
        return CatalogueItem.fromItem(item);
    }

    /**
     * Removes the catalogue item only, and returns it as it was. A user's items that refer to it stay as they
     * are: they record the user's history, and their score is a copy taken when they were written.
     */
    CatalogueItem delete(String itemId) {
        try {
            return CatalogueItem.fromItem(dynamo.deleteItem(ItemRequests.delete(table, itemId)).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw notFound(itemId);
        }
    }

    static ApiException notFound(String itemId) {
        return ApiException.notFound("item '" + itemId + "' does not exist");
    }
}
