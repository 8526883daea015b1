package io.tally.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Counts the requests of one client and the write units DynamoDB reports for them. It asks for
 * {@code ReturnConsumedCapacity=TOTAL} on every single-item write itself, so that the processors under test run
 * their own, unchanged requests.
 */
final class RequestCounter implements ExecutionInterceptor {
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong writesWithoutCapacity = new AtomicLong();
    private final AtomicLong failedRequests = new AtomicLong();
    private final DoubleAdder writeUnits = new DoubleAdder();

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        if (context.request() instanceof UpdateItemRequest update) {
            return update.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        if (context.request() instanceof PutItemRequest put) {
            return put.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        return context.request();
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
        } else if (write) {
            writesWithoutCapacity.incrementAndGet();
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        // Conditional check failures (the engine's "already applied") land here: they are requests all the same.
        failedRequests.incrementAndGet();
    }

    Snapshot snapshot() {
        return new Snapshot(requests.get(), writeUnits.sum(), writesWithoutCapacity.get(), failedRequests.get());
    }

    record Snapshot(long requests, double writeUnits, long writesWithoutCapacity, long failedRequests) {
        Snapshot minus(Snapshot before) {
            return new Snapshot(requests - before.requests, writeUnits - before.writeUnits,
                    writesWithoutCapacity - before.writesWithoutCapacity, failedRequests - before.failedRequests);
        }
    }
}
