package io.tally.writer.catalogue;

import io.tally.core.catalogue.CatalogueItem;
import io.tally.core.catalogue.CatalogueKeys;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** Pure builders of the catalogue item requests; tested by comparing the requests they build. */
final class ItemRequests {
    private ItemRequests() {
    }

    /**
     * An unconditional put: {@code PUT} creates or replaces. The old image, returned in the same call, tells
     * 201 from 200 without a read that a concurrent writer could overtake.
     */
    static PutItemRequest put(String table, CatalogueItem item) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item.toItem())
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }

    static GetItemRequest get(String table, String itemId) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(CatalogueKeys.catalogueItem(itemId).toAttributeMap())
                .consistentRead(true)
                .build();
    }

    /**
     * A hard delete. The condition turns a delete of nothing into a failure (404) instead of a silent success,
     * and the old image is the response body.
     */
    static DeleteItemRequest delete(String table, String itemId) {
        return DeleteItemRequest.builder()
                .tableName(table)
                .key(CatalogueKeys.catalogueItem(itemId).toAttributeMap())
                .conditionExpression("attribute_exists(pk)")
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }
}
