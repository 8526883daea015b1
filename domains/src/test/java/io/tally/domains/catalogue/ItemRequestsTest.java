package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

class ItemRequestsTest {
    private static final Map<String, AttributeValue> KEY =
            Map.of("pk", AttributeValue.fromS("ITEM#item-55"), "sk", AttributeValue.fromS("#METADATA#"));

    @Test
    void put_anyItem_onConditionTheRevisionGrows_returnsTheOldImageAndTheStoredItemOnRefusal() {
        CatalogueItem item = new CatalogueItem("item-55", "Tides", 70, "global-cycle:5",
                Instant.parse("2019-01-22T10:28:49.930Z"), 1548152929930123L);

        PutItemRequest request = ItemRequests.put("t", item);

        assertThat(request).isEqualTo(PutItemRequest.builder()
                .tableName("t")
                .item(Map.of(
                        "pk", AttributeValue.fromS("ITEM#item-55"),
                        "sk", AttributeValue.fromS("#METADATA#"),
                        "entityType", AttributeValue.fromS("CatalogueItem"),
                        "itemId", AttributeValue.fromS("item-55"),
                        "title", AttributeValue.fromS("Tides"),
                        "score", AttributeValue.fromN("70"),
                        "itemSelector", AttributeValue.fromS("global-cycle:5"),
                        "updatedAt", AttributeValue.fromS("2019-01-22T10:28:49.930Z"),
                        "revision", AttributeValue.fromN("1548152929930123")))
                .conditionExpression("attribute_not_exists(#rev) OR #rev < :rev")
                .expressionAttributeNames(Map.of("#rev", "revision"))
                .expressionAttributeValues(Map.of(":rev", AttributeValue.fromN("1548152929930123")))
                .returnValues(ReturnValue.ALL_OLD)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build());
    }

    @Test
    void put_withoutTitle_leavesTitleOutAndNeverWritesTheIndexAttributes() {
        PutItemRequest request = ItemRequests.put("t", new CatalogueItem("i", null, 1, "back-catalogue", Instant.EPOCH, 1));

        assertThat(request.item()).doesNotContainKeys("title", "selector", "data");
    }

    @Test
    void get_anyId_readsTheMetadataKeyConsistently() {
        assertThat(ItemRequests.get("t", "item-55")).isEqualTo(GetItemRequest.builder()
                .tableName("t")
                .key(KEY)
                .consistentRead(true)
                .build());
    }

    @Test
    void delete_anyId_requiresExistenceAndReturnsTheOldImage() {
        assertThat(ItemRequests.delete("t", "item-55")).isEqualTo(DeleteItemRequest.builder()
                .tableName("t")
                .key(KEY)
                .conditionExpression("attribute_exists(pk)")
                .returnValues(ReturnValue.ALL_OLD)
                .build());
    }
}
