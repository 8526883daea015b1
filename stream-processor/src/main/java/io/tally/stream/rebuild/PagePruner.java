package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * What the watermark pruner does with one page of its scan: judges the page's shard tokens, folds the partials of gone
 * shards into their shared items ({@link PartialFold}), removes each other item's watermarks of gone shards
 * ({@link WatermarkRemovals}) and deletes the cursors of gone shards, each on the condition that what it removes is
 * unchanged since the read. Thread-safe: the scan's segments share one.
 *
 * <p>A request DynamoDB refuses for the item's own sake ({@link ItemFailures}) is counted and logged with the item's
 * key, and the page goes on with the next item; any other failure is thrown, and the pass stops before it stores a
 * position past this page.
 */
final class PagePruner {
    private final DynamoDbClient dynamo;
    private final String table;
    private final ShardTokens tokens;
    private final Supplier<Set<String>> listing;
    private final PruneTally tally;

    PagePruner(DynamoDbClient dynamo, String table, ShardTokens tokens, Supplier<Set<String>> listing,
               PruneTally tally) {
        this.dynamo = dynamo;
        this.table = table;
        this.tokens = tokens;
        this.listing = listing;
        this.tally = tally;
    }

    void prune(List<Map<String, AttributeValue>> page) {
        tokens.judge(page, listing);
        for (Map<String, AttributeValue> item : page) {
            try {
                if (ShardTokens.isCursor(item)) {
                    deleteCursorOfGoneShard(item);
                } else if (isPartialOfAGoneShard(item)) {
                    fold(item);
                } else {
                    removeStaleWatermarks(item);
                }
            } catch (SdkException e) {
                if (!ItemFailures.isTheItems(e)) {
                    throw e;
                }
                tally.failed(Key.of(item), e);
            }
        }
    }

    /**
     * Removes the item's stale watermarks chunk by chunk. A chunk refused by its condition (a watermark moved since
     * the read) is left to the next pass; the other chunks still go. A chunk refused otherwise ends the item: the
     * chunks removed before it are counted, and the failure is thrown.
     */
    private void removeStaleWatermarks(Map<String, AttributeValue> item) {
        long removed = 0;
        boolean changedMeanwhile = false;
        try {
            for (UpdateItemRequest request : WatermarkRemovals.removals(table, item, tokens.live())) {
                try {
                    dynamo.updateItem(request);
                    removed += request.expressionAttributeNames().size();
                } catch (ConditionalCheckFailedException e) {
                    changedMeanwhile = true;
                }
            }
        } finally {
            tally.item(removed, changedMeanwhile);
        }
    }

    private boolean isPartialOfAGoneShard(Map<String, AttributeValue> item) {
        String token = PartialKeys.partialToken(Key.of(item));
        return token != null && item.containsKey(TableSchema.ENTITY_TYPE) && !tokens.live().contains(token);
    }

    /**
     * Folds a gone shard's partial into its base item, step by step ({@link PartialFold}); a step refused by its
     * condition (the partial was written since the read, or folded by another pass) leaves the rest to the next pass.
     */
    private void fold(Map<String, AttributeValue> partial) {
        for (TransactWriteItemsRequest step : PartialFold.steps(table, partial)) {
            try {
                dynamo.transactWriteItems(step);
            } catch (TransactionCanceledException e) {
                if (e.cancellationReasons().stream().noneMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                    throw e;
                }
                tally.partial(false);
                return;
            }
        }
        tally.partial(true);
    }

    /** Deletes the cursor of a shard that is gone, if it is unchanged since it was read. */
    private void deleteCursorOfGoneShard(Map<String, AttributeValue> cursor) {
        if (tokens.live().contains(ShardTokens.cursorToken(cursor))) {
            return;
        }
        AttributeValue updatedAt = cursor.get(ShardCursorItem.UPDATED_AT);
        try {
            dynamo.deleteItem(r -> {
                r.tableName(table).key(Key.of(cursor).toAttributeMap()).expressionAttributeNames(Map.of("#u",
                        ShardCursorItem.UPDATED_AT));
                if (updatedAt == null) {
                    r.conditionExpression("attribute_not_exists(#u)");
                } else {
                    r.conditionExpression("#u = :u").expressionAttributeValues(Map.of(":u", updatedAt));
                }
            });
            tally.cursorRemoved();
        } catch (ConditionalCheckFailedException e) {
            // The cursor was written after the read: left to the next pass.
        }
    }
}
