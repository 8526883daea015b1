package io.tally.stream.engine;

import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** Derived items in the DynamoDB table, one UpdateItem per {@link DerivedWrite}. */
public record DynamoDbDerivedStore(DynamoDbClient client, String tableName) implements DerivedStore {
    public DynamoDbDerivedStore {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(tableName, "tableName");
    }

    @Override
    public Outcome apply(DerivedWrite write) {
        try {
            client.updateItem(DerivedWrites.toUpdateItem(tableName, write));
            return Applied.INSTANCE;
        } catch (ConditionalCheckFailedException e) {
            // No item in the exception means there is no item: its watermark and revision are absent.
            Map<String, AttributeValue> item = e.hasItem() ? e.item() : null;
            return new Refused(DerivedWrites.watermarkOf(write, item), DerivedWrites.revisionOf(item));
        }
    }
}
