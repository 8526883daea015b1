package io.tally.domains.catalogue;

import io.tally.core.http.ApiException;
import io.tally.core.store.Condition;
import io.tally.core.store.TypedTable;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Put;

/** The catalogue items, written under a revision that only grows, and the client's answer to each write. */
final class ItemStore {
    /**
     * Attempts of a put before it gives up (503): each refusal means another write of the same item committed a
     * revision at least as high in between, which several times in a row only happens under a storm of writes.
     */
    static final int MAX_PUT_ATTEMPTS = 8;

    private final TypedTable<CatalogueItem> items;

    ItemStore(DynamoDbClient dynamo, String table) {
        this.items = TypedTable.of(dynamo, table, CatalogueItem.SCHEMA);
    }

    /**
     * Creates or replaces the item under the next revision ({@link CatalogueItem#nextRevision}); true when it did
     * not exist before. {@code PUT} writes on the one condition that the item's revision grows: the stored item (if
     * any) has a lower revision, or none (it was written before revisions existed, and reads as 0). What the put found,
     * in the same call, tells 201 from 200 without a read that a concurrent writer could overtake. The first attempt
     * stamps the clock alone, which is above the stored revision unless another write of the item came within the
     * same microsecond or from a writer whose clock is ahead; then the refusal answers the stored item, and the next
     * attempt goes one above its revision.
     *
     * @param now the writer's clock, at full precision (the item's {@code updatedAt} is truncated to milliseconds)
     */
    boolean put(CatalogueItem item, Instant now) {
        long stored = 0;
        for (int attempt = 1; ; attempt++) {
            CatalogueItem stamped = item.withRevision(CatalogueItem.nextRevision(stored, now));
            TypedTable.Put<CatalogueItem> put = items.put(stamped, Condition.lacks(CatalogueItem.REVISION)
                    .or(Condition.below(CatalogueItem.REVISION, stamped.revision())));
            if (put.written()) {
                return !put.existed();
            }
            if (attempt == MAX_PUT_ATTEMPTS) {
                throw ApiException.unavailable("item '" + item.itemId() + "' is being written concurrently, retry");
            }
            stored = put.previous().map(CatalogueItem::revision).orElse(0L);
        }
    }

    CatalogueItem get(String itemId) {
        return items.get(CatalogueKeys.catalogueItem(itemId)).orElseThrow(() -> notFound(itemId));
    }

    static ApiException notFound(String itemId) {
        return ApiException.notFound("item '" + itemId + "' does not exist");
    }
}
