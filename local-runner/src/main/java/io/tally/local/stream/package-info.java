/**
 * The Lambda event source mapping for DynamoDB Streams, locally: {@link io.tally.local.stream.StreamPoller} reads
 * the table's stream from DynamoDB Local and invokes the same stream handler that runs on AWS, with the batching,
 * retry, bisect, partial-failure, record-age and on-failure-destination rules of {@link
 * io.tally.local.stream.EsmSettings}.
 *
 * <p>Ports and adapters: {@link io.tally.local.stream.BatchInvoker} (a plain {@code DynamodbEvent} handler through
 * {@link io.tally.local.stream.LambdaBatchInvoker}, a tumbling-window handler through {@link
 * io.tally.local.stream.TumblingWindowBatchInvoker}), {@link io.tally.local.stream.CheckpointStore} (in memory or in
 * a file of the data directory) and {@link io.tally.local.stream.FailureDestination} (a JSON-lines file).
 */
package io.tally.local.stream;
