package io.tally.bench.model;

import io.tally.bench.aws.AwsLatencyInterceptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;

/**
 * The model of AWS inside a function process, registered for every SDK client of the process through the SDK's
 * global interceptors ({@code software/amazon/awssdk/global/handlers/execution.interceptors}), so that the handler
 * runs its own, unchanged clients. It does nothing unless {@link ModelState#SCALE} is set. Per attempt:
 * <ul>
 *   <li>a latency drawn from the heavy-tailed model ({@code LatencyModel.awsHeavyTailed}), times the scale: the
 *   local service answers, and the answer is held for the rest of the draw;</li>
 *   <li>throttling: a write whose partition key has no write units left this second (1,000 a second per key, a
 *   second's worth saved up) fails with {@code ProvisionedThroughputExceededException} without reaching the table,
 *   and a PutEvents call past the quota with {@code ThrottlingException}, as AWS answers; the SDK retries as it
 *   would, and its back-off between attempts is stretched by the scale, as every other wait is;</li>
 *   <li>the write units DynamoDB reports ({@code ReturnConsumedCapacity=TOTAL} is asked for on every write), and when
 *   each write succeeded, for the echo of the function's writes through the stream ({@link Echoes}).</li>
 * </ul>
 * Units per write for the throttle: one per single-item write or batch item, two per item of a transaction (items
 * of Tally's table are under 1 KB). Reads are not throttled (3,000 read units a second per partition).
 */
public final class ModelInterceptor implements ExecutionInterceptor {
    private static final ExecutionAttribute<Long> SENT = new ExecutionAttribute<>("tally.model.sent");
    private static final ExecutionAttribute<Long> ATTEMPT_ENDED = new ExecutionAttribute<>("tally.model.ended");

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        ModelState model = ModelState.get();
        if (model == null) {
            return context.request();
        }
        SdkRequest request = context.request();
        if (request instanceof UpdateItemRequest update) {
            return update.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        if (request instanceof PutItemRequest put) {
            return put.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        if (request instanceof DeleteItemRequest delete) {
            return delete.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        if (request instanceof TransactWriteItemsRequest transaction) {
            return transaction.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        return request;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        ModelState model = ModelState.get();
        if (model == null) {
            return;
        }
        Long ended = attributes.getAttribute(ATTEMPT_ENDED);
        if (ended != null) {
            // A retry: the SDK's back-off since the last attempt ran in real time; the model's is scale times it.
            AwsLatencyInterceptor.pause(Math.round((System.nanoTime() - ended) * (model.scale - 1)));
        }
        model.calls.incrementAndGet();
        String service = AwsLatencyInterceptor.service(attributes);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        RuntimeException throttled = throttle(model, context.request());
        if (throttled != null) {
            AwsLatencyInterceptor.pause(model.drawRealNanos(service, operation));
            attributes.putAttribute(ATTEMPT_ENDED, System.nanoTime());
            throw throttled;
        }
        attributes.putAttribute(SENT, System.nanoTime());
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        ModelState model = ModelState.get();
        Long sent = attributes.getAttribute(SENT);
        if (model == null || sent == null) {
            return;
        }
        long local = System.nanoTime() - sent;
        long drawn = model.drawRealNanos(AwsLatencyInterceptor.service(attributes),
                attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        model.localNanos.addAndGet(local);
        model.drawnNanos.addAndGet(drawn);
        if (drawn > local) {
            AwsLatencyInterceptor.pause(drawn - local);
        } else {
            model.lateCalls.incrementAndGet();
        }
        attributes.putAttribute(ATTEMPT_ENDED, System.nanoTime());
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        ModelState model = ModelState.get();
        if (model == null) {
            return;
        }
        SdkResponse response = context.response();
        model.wrote(itemsWritten(context.request(), response));
        ConsumedCapacity capacity;
        if (response instanceof UpdateItemResponse update) {
            capacity = update.consumedCapacity();
        } else if (response instanceof PutItemResponse put) {
            capacity = put.consumedCapacity();
        } else if (response instanceof DeleteItemResponse delete) {
            capacity = delete.consumedCapacity();
        } else if (response instanceof TransactWriteItemsResponse transaction) {
            capacity = transaction.hasConsumedCapacity() && !transaction.consumedCapacity().isEmpty()
                    ? transaction.consumedCapacity().get(0) : null;
        } else {
            return;
        }
        if (capacity != null && capacity.capacityUnits() != null) {
            model.writeUnits.add(capacity.capacityUnits());
        } else {
            model.writesWithoutCapacity.incrementAndGet();
        }
    }

    /** Items a successful write request wrote (each a record on the table's stream); 0 for any other request. */
    static int itemsWritten(SdkRequest request, SdkResponse response) {
        if (request instanceof UpdateItemRequest || request instanceof PutItemRequest
                || request instanceof DeleteItemRequest) {
            return 1;
        }
        if (request instanceof TransactWriteItemsRequest transaction) {
            return (int) transaction.transactItems().stream().filter(item -> item.conditionCheck() == null).count();
        }
        if (request instanceof BatchWriteItemRequest batch
                && response instanceof software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse written) {
            int requested = batch.requestItems().values().stream().mapToInt(List::size).sum();
            int left = written.unprocessedItems().values().stream().mapToInt(List::size).sum();
            return requested - left;
        }
        return 0;
    }

    /** The throttle's answer to this attempt, or null when it goes through. */
    static RuntimeException throttle(ModelState model, SdkRequest request) {
        if (request instanceof PutEventsRequest && model.putEvents != null) {
            if (model.putEvents.takeOne(List.of("account"), model.modelNanos())) {
                return null;
            }
            model.throttledPutEvents.incrementAndGet();
            return EventBridgeException.builder().statusCode(400).message("Rate exceeded (the model's PutEvents quota)")
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode("ThrottlingException")
                            .errorMessage("Rate exceeded").serviceName("EventBridge").build())
                    .build();
        }
        Map<String, Double> units = writeUnits(request);
        if (units.isEmpty() || model.partitions.take(units, model.modelNanos())) {
            return null;
        }
        model.throttledWrites.incrementAndGet();
        return ProvisionedThroughputExceededException.builder().statusCode(400)
                .message("The level of configured provisioned throughput for one or more global secondary indexes"
                        + " or the table was exceeded (the model's 1,000 write units a second per partition)")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException")
                        .serviceName("DynamoDb").build())
                .build();
    }

    /** The write units a DynamoDB write request takes, per partition key value; empty for any other request. */
    static Map<String, Double> writeUnits(SdkRequest request) {
        Map<String, Double> units = new HashMap<>();
        if (request instanceof UpdateItemRequest update) {
            add(units, update.key(), 1);
        } else if (request instanceof PutItemRequest put) {
            add(units, put.item(), 1);
        } else if (request instanceof DeleteItemRequest delete) {
            add(units, delete.key(), 1);
        } else if (request instanceof TransactWriteItemsRequest transaction) {
            for (TransactWriteItem item : transaction.transactItems()) {
                if (item.update() != null) {
                    add(units, item.update().key(), 2);
                } else if (item.put() != null) {
                    add(units, item.put().item(), 2);
                } else if (item.delete() != null) {
                    add(units, item.delete().key(), 2);
                }
            }
        } else if (request instanceof BatchWriteItemRequest batch) {
            List<WriteRequest> writes = new ArrayList<>();
            batch.requestItems().values().forEach(writes::addAll);
            for (WriteRequest write : writes) {
                add(units, write.putRequest() != null ? write.putRequest().item() : write.deleteRequest().key(), 1);
            }
        }
        return units;
    }

    private static void add(Map<String, Double> units, Map<String, AttributeValue> key, double amount) {
        AttributeValue pk = key == null ? null : key.get("pk");
        units.merge(pk == null || pk.s() == null ? "?" : pk.s(), amount, Double::sum);
    }
}
