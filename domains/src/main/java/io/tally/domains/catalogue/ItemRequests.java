package io.tally.domains.catalogue;

import io.tally.core.Items;
import io.tally.core.store.Requests;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/** Pure builders of the catalogue item requests; tested by comparing the requests they build. */
final class ItemRequests {
    private ItemRequests() {
    }

    /**
     * {@code PUT} creates or replaces, on the one condition that the item's revision grows: the stored item (if
     * any) has a lower revision, or none (it was written before revisions existed). The old image, returned in the
     * same call, tells 201 from 200 without a read that a concurrent writer could overtake; a failed condition
     * returns the stored item, whose revision the next attempt goes above.
     */
    static PutItemRequest put(String table, CatalogueItem item) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item.toItem())
                .conditionExpression("attribute_not_exists(#rev) OR #rev < :rev")
                .expressionAttributeNames(Map.of("#rev", CatalogueItem.REVISION))
                .expressionAttributeValues(Map.of(":rev", Items.n(item.revision())))
                .returnValues(ReturnValue.ALL_OLD)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();
    }

    static GetItemRequest get(String table, String itemId) {
        return Requests.consistentGet(table, CatalogueKeys.catalogueItem(itemId));
    }

    /**
     * A hard delete. The condition turns a delete of nothing into a failure (404) instead of a silent success,
     * and the old image is the response body.
     */
    static DeleteItemRequest delete(String table, String itemId) {
        return Requests.deleteExisting(table, CatalogueKeys.catalogueItem(itemId));
    }
}
