package io.tally.bench;

import io.tally.core.ShardCursorItem;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Counts the requests of one client and the write units DynamoDB reports for them, in total and broken down by the
 * item type written (its {@code :type} value, which both processors send, else the partition key's prefix) and by
 * where the units go: the table or one of its indexes. It asks for {@code ReturnConsumedCapacity=INDEXES} on every
 * single-item write itself, so that the processors under test run their own, unchanged requests.
 */
final class RequestCounter implements ExecutionInterceptor {
    /** The breakdown's name for the units of the base table itself. */
    static final String TABLE = "table";

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong writesWithoutCapacity = new AtomicLong();
    private final AtomicLong failedRequests = new AtomicLong();
    private final DoubleAdder writeUnits = new DoubleAdder();
    /** Per item type: write requests answered, and write units per destination (table or index name). */
    private final Map<String, AtomicLong> writesByType = new ConcurrentHashMap<>();
    private final Map<String, Map<String, DoubleAdder>> unitsByType = new ConcurrentHashMap<>();

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return withConsumedCapacity(context.request());
    }

    /** An UpdateItem or PutItem that asks for its consumed capacity per table and index; any other request as it is. */
    static SdkRequest withConsumedCapacity(SdkRequest request) {
        if (request instanceof UpdateItemRequest update) {
            return update.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        if (request instanceof PutItemRequest put) {
            return put.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        }
        return request;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        requests.incrementAndGet();
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        SdkResponse response = context.response();
        ConsumedCapacity capacity = null;
        boolean write = false;
        if (response instanceof UpdateItemResponse update) {
            capacity = update.consumedCapacity();
            write = true;
        } else if (response instanceof PutItemResponse put) {
            capacity = put.consumedCapacity();
            write = true;
        }
        if (capacity != null && capacity.capacityUnits() != null) {
            writeUnits.add(capacity.capacityUnits());
            String type = itemType(context.request());
            writesByType.computeIfAbsent(type, t -> new AtomicLong()).incrementAndGet();
            Map<String, DoubleAdder> units = unitsByType.computeIfAbsent(type, t -> new ConcurrentHashMap<>());
            double table = capacity.table() != null && capacity.table().capacityUnits() != null
                    ? capacity.table().capacityUnits() : capacity.capacityUnits();
            double indexes = 0;
            for (Map<String, Capacity> byIndex : new Map[] {capacity.globalSecondaryIndexes(),
                    capacity.localSecondaryIndexes()}) {
                if (byIndex == null) {
                    continue;
                }
                for (Map.Entry<String, Capacity> index : byIndex.entrySet()) {
                    double used = index.getValue().capacityUnits() == null ? 0 : index.getValue().capacityUnits();
                    indexes += used;
                    units.computeIfAbsent(index.getKey(), i -> new DoubleAdder()).add(used);
                }
            }
            // Whatever the per-index figures leave unexplained of the total stays with the table.
            if (capacity.table() == null) {
                table = capacity.capacityUnits() - indexes;
            }
            units.computeIfAbsent(TABLE, i -> new DoubleAdder()).add(table);
        } else if (write) {
            writesWithoutCapacity.incrementAndGet();
        }
    }

    /** The item type a write addresses: the {@code :type} both processors set, else the partition key's prefix. */
    static String itemType(SdkRequest request) {
        Map<String, AttributeValue> values = null;
        Map<String, AttributeValue> key = null;
        if (request instanceof UpdateItemRequest update) {
            values = update.expressionAttributeValues();
            key = update.key();
        } else if (request instanceof PutItemRequest put) {
            AttributeValue type = put.item().get("entityType");
            if (type != null && type.s() != null) {
                return type.s();
            }
            key = put.item();
        }
        if (values != null) {
            AttributeValue type = values.get(":type");
            if (type != null && type.s() != null) {
                return type.s();
            }
        }
        AttributeValue pk = key == null ? null : key.get("pk");
        if (pk == null || pk.s() == null) {
            return "other";
        }
        if (pk.s().startsWith(ShardCursorItem.PREFIX)) {
            // The cursor's release names no type (its claim does).
            return ShardCursorItem.TYPE.attributeValue();
        }
        int hash = pk.s().indexOf('#');
        return (hash < 0 ? pk.s() : pk.s().substring(0, hash)) + "#…";
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        // Conditional check failures (the engine's "already applied") land here: they are requests all the same.
        failedRequests.incrementAndGet();
    }

    Snapshot snapshot() {
        Map<String, Map<String, Double>> units = new TreeMap<>();
        unitsByType.forEach((type, byDestination) -> {
            Map<String, Double> copy = new TreeMap<>();
            byDestination.forEach((destination, sum) -> copy.put(destination, sum.sum()));
            units.put(type, copy);
        });
        Map<String, Long> writes = new TreeMap<>();
        writesByType.forEach((type, count) -> writes.put(type, count.get()));
        return new Snapshot(requests.get(), writeUnits.sum(), writesWithoutCapacity.get(), failedRequests.get(),
                writes, units);
    }

    /**
     * @param writesByType  successful single-item writes per item type
     * @param unitsByType   per item type, write units per destination: {@link #TABLE} or an index name
     */
    record Snapshot(long requests, double writeUnits, long writesWithoutCapacity, long failedRequests,
                    Map<String, Long> writesByType, Map<String, Map<String, Double>> unitsByType) {
        Snapshot minus(Snapshot before) {
            Map<String, Long> writes = new TreeMap<>(writesByType);
            before.writesByType.forEach((type, count) -> writes.merge(type, -count, Long::sum));
            Map<String, Map<String, Double>> units = new TreeMap<>();
            unitsByType.forEach((type, byDestination) -> units.put(type, new TreeMap<>(byDestination)));
            before.unitsByType.forEach((type, byDestination) -> byDestination.forEach((destination, sum) ->
                    units.computeIfAbsent(type, t -> new TreeMap<>()).merge(destination, -sum, Double::sum)));
            return new Snapshot(requests - before.requests, writeUnits - before.writeUnits,
                    writesWithoutCapacity - before.writesWithoutCapacity, failedRequests - before.failedRequests,
                    writes, units);
        }
    }
}
