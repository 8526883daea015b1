package io.tally.local.stream;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * One synchronous invocation of the function with a batch of one shard's stream records, as the event source mapping
 * makes it. Adapters turn the records into the function's event type ({@link LambdaBatchInvoker},
 * {@link TumblingWindowBatchInvoker}).
 *
 * <p>An implementation reports a function that throws as {@link InvocationResult#functionError}; should it throw
 * itself, the poller counts that as a function error too.
 */
@FunctionalInterface
public interface BatchInvoker {
    /**
     * @param shardId the shard the records come from; a plain {@code DynamodbEvent} does not carry it
     * @param records the batch, in stream order, never empty
     */
    InvocationResult invoke(String shardId, List<Record> records);

    /**
     * Ends what the invoker keeps from one invocation of a shard to the next, once the poller has stopped: a tumbling
     * window's final invocation ({@link TumblingWindowBatchInvoker}). Nothing by default.
     */
    default void endWindows() {
    }
}
