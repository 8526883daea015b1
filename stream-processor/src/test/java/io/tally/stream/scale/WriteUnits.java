package io.tally.stream.scale;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The write units a client's writes consumed on the table, as DynamoDB (Local) reports them: every write asks for its
 * consumed capacity by table and index ({@code INDEXES}), and the table's units are added up (an index's writes are the
 * same for any processor that writes the same items, and the floor leaves them out too). A transaction is counted here,
 * not as reported: DynamoDB charges two write units for each item a transaction writes (up to 1 KB, which every item of
 * the simulations is; AWS's pricing page, "transactional write requests"), where DynamoDB Local reports two units a
 * transaction whatever its items ({@code WriteUnitsIT} checks both). Thread-safe.
 */
final class WriteUnits implements ExecutionInterceptor {
    /** What DynamoDB charges for each item a transaction writes, up to 1 KB. */
    static final double TRANSACTIONAL_UNITS = 2;
    private final DoubleAdder units = new DoubleAdder();
    private final Map<String, DoubleAdder> byKind = new ConcurrentHashMap<>();

    double total() {
        return units.sum();
    }

    /**
     * The units by what was written: {@code cursor claim} and {@code cursor release} (the shard cursors' claims, which
     * also store the progress handed over, and releases), {@code cursor registry} (a cursor's entry in the registry,
     * its mark and the pruner's deletion of the entry, and the shard's lineage settled in its cursor: once in a shard's
     * life), {@code fold} (the
     * pruner's transactions), {@code pruner} (its other writes: watermark removals, cursor deletes, its position),
     * {@code derived} (the engine's derived writes, zero removals and dead letters).
     */
    Map<String, Double> byKind() {
        Map<String, Double> kinds = new TreeMap<>();
        byKind.forEach((kind, adder) -> kinds.put(kind, adder.sum()));
        return kinds;
    }

    private static String kind(SdkRequest request) {
        Map<String, AttributeValue> key = request instanceof UpdateItemRequest update ? update.key()
                : request instanceof DeleteItemRequest delete ? delete.key()
                : request instanceof PutItemRequest put ? put.item() : null;
        if (request instanceof TransactWriteItemsRequest) {
            return "fold";
        }
        String pk = key == null || key.get("pk") == null ? "" : key.get("pk").s();
        if (pk.startsWith("CURSORS#") || request instanceof UpdateItemRequest update
                && (update.updateExpression().startsWith("SET #registered")
                || update.updateExpression().contains("#lineage = if_not_exists"))) {
            return "cursor registry";
        }
        if (pk.startsWith("SHARD#")) {
            return request instanceof DeleteItemRequest ? "pruner"
                    : request instanceof UpdateItemRequest update && update.updateExpression().contains("#holder = ")
                    ? "cursor claim" : "cursor release";
        }
        if (pk.startsWith("PRUNER#") || request instanceof UpdateItemRequest update
                && update.updateExpression().startsWith("REMOVE") && update.expressionAttributeNames().values()
                .stream().allMatch(name -> name.startsWith("wm_"))) {
            return "pruner";
        }
        return "derived";
    }

    private void count(SdkRequest request, double used) {
        units.add(used);
        byKind.computeIfAbsent(kind(request), k -> new DoubleAdder()).add(used);
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest request = context.request();
        if (request instanceof UpdateItemRequest update && update.returnConsumedCapacity() == null) {
            return update.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        if (request instanceof PutItemRequest put && put.returnConsumedCapacity() == null) {
            return put.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        if (request instanceof DeleteItemRequest delete && delete.returnConsumedCapacity() == null) {
            return delete.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        if (request instanceof TransactWriteItemsRequest transaction && transaction.returnConsumedCapacity() == null) {
            return transaction.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        if (request instanceof BatchWriteItemRequest batch && batch.returnConsumedCapacity() == null) {
            return batch.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        return request;
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        Object response = context.response();
        SdkRequest request = context.request();
        if (response instanceof UpdateItemResponse update) {
            add(request, List.of(update.consumedCapacity()));
        } else if (response instanceof PutItemResponse put) {
            add(request, List.of(put.consumedCapacity()));
        } else if (response instanceof DeleteItemResponse delete) {
            add(request, List.of(delete.consumedCapacity()));
        } else if (response instanceof TransactWriteItemsResponse && request instanceof TransactWriteItemsRequest
                transaction) {
            count(transaction, TRANSACTIONAL_UNITS * transaction.transactItems().size());
        } else if (response instanceof BatchWriteItemResponse batch && batch.hasConsumedCapacity()) {
            add(request, batch.consumedCapacity());
        }
    }

    /**
     * A write refused by its condition consumes a write unit all the same (DynamoDB charges it at the item's size; one
     * here, the least), which the refusal does not report: counted as one; a refused transaction as if it had written.
     */
    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        if (context.exception() instanceof ConditionalCheckFailedException) {
            count(context.request(), 1);
        } else if (context.exception() instanceof TransactionCanceledException
                && context.request() instanceof TransactWriteItemsRequest transaction) {
            count(transaction, TRANSACTIONAL_UNITS * transaction.transactItems().size());
        }
    }

    private void add(SdkRequest request, List<ConsumedCapacity> capacities) {
        for (ConsumedCapacity capacity : capacities) {
            if (capacity != null && capacity.table() != null && capacity.table().capacityUnits() != null) {
                count(request, capacity.table().capacityUnits());
            } else if (capacity != null && capacity.capacityUnits() != null) {
                count(request, capacity.capacityUnits());
            }
        }
    }
}
