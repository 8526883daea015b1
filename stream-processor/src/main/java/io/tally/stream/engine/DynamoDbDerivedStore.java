package io.tally.stream.engine;

import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Derived items in the DynamoDB table, one UpdateItem per {@link DerivedWrite}, and one more when the write brought
 * counters of a family ({@link DerivedWrite#removableCounters}, such as a tag's) to zero: they are removed
 * ({@link DerivedWrites#zeroRemovals}), so that an item does not keep the counters of subjects gone long ago. A
 * declared counter stays at zero, without the second write.
 */
public record DynamoDbDerivedStore(DynamoDbClient client, String tableName) implements DerivedStore {
    private static final Logger LOG = LoggerFactory.getLogger(DynamoDbDerivedStore.class);

    public DynamoDbDerivedStore {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(tableName, "tableName");
    }

    @Override
    public Outcome apply(DerivedWrite write) {
        UpdateItemResponse response;
        try {
            response = client.updateItem(DerivedWrites.toUpdateItem(tableName, write));
        } catch (ConditionalCheckFailedException e) {
            // No item in the exception means there is no item: its watermark and revision are absent.
            Map<String, AttributeValue> item = e.hasItem() ? e.item() : null;
            return new Refused(DerivedWrites.watermarkOf(write, item), DerivedWrites.revisionOf(item));
        }
        removeZeros(write, response.attributes());
        return new Applied(writeUnits(response.consumedCapacity()));
    }

    /** The table's write units, without its indexes'; 0 when DynamoDB did not say. */
    static int writeUnits(ConsumedCapacity consumed) {
        if (consumed == null) {
            return 0;
        }
        Double units = consumed.table() != null && consumed.table().capacityUnits() != null
                ? consumed.table().capacityUnits() : consumed.capacityUnits();
        return units == null ? 0 : (int) Math.ceil(units);
    }

    /**
     * Removes the counters the write left at zero. The write is in whatever happens here: a counter another shard moved
     * meanwhile is kept (the condition), and a failure leaves a zero, which reads as no counter, behind.
     */
    private void removeZeros(DerivedWrite write, Map<String, AttributeValue> updated) {
        for (UpdateItemRequest removal : DerivedWrites.zeroRemovals(tableName, write.key(),
                DerivedWrites.zeroCounters(write, updated))) {
            try {
                client.updateItem(removal);
            } catch (ConditionalCheckFailedException e) {
                // Another shard's write moved one of them: it counts something again.
            } catch (SdkException e) {
                LOG.warn("could not remove the zero counters of {}; they stay, at zero", write.key(), e);
            }
        }
    }
}
