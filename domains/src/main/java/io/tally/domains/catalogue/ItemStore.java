package io.tally.domains.catalogue;

import io.tally.core.Items;
import io.tally.core.http.ApiException;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** Where the old image of a catalogue item write becomes the client's answer (created or replaced, found or not). */
record ItemStore(DynamoDbClient dynamo, String table) {
    /**
     * Attempts of a put before it gives up (503): each refusal means another write of the same item committed a
     * revision at least as high in between, which several times in a row only happens under a storm of writes.
     */
    static final int MAX_PUT_ATTEMPTS = 8;

    /**
     * Creates or replaces the item under the next revision ({@link CatalogueItem#nextRevision}); true when it did
     * not exist before. The first attempt stamps the clock alone, which is above the stored revision unless
     * another write of the item came within the same microsecond or from a writer whose clock is ahead; then the
     * refused condition returns the stored item, and the next attempt goes one above its revision.
     *
     * @param now the writer's clock, at full precision (the item's {@code updatedAt} is truncated to milliseconds)
     */
    boolean put(CatalogueItem item, Instant now) {
        long stored = 0;
        for (int attempt = 1; ; attempt++) {
            CatalogueItem stamped = item.withRevision(CatalogueItem.nextRevision(stored, now));
            try {
                Map<String, AttributeValue> old = dynamo.putItem(ItemRequests.put(table, stamped)).attributes();
                return old == null || old.isEmpty();
            } catch (ConditionalCheckFailedException e) {
                if (attempt == MAX_PUT_ATTEMPTS) {
                    throw ApiException.unavailable("item '" + item.itemId() + "' is being written concurrently, retry");
                }
                Map<String, AttributeValue> current = e.hasItem() ? e.item() : Map.of();
                stored = current.containsKey(CatalogueItem.REVISION) ? Items.number(current, CatalogueItem.REVISION) : 0;
            }
        }
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
