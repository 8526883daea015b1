package io.tally.local.stream;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What every shard's worker is made of: the stream to read, the function to invoke with the event source mapping's
 * settings (its filter included), where failures and checkpoints go, and the counters they all add to.
 */
final class ShardWorkerFactory {
    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final String functionArn;
    private final EsmSettings settings;
    private final BatchInvoker invoker;
    private final FailureDestination destination;
    private final CheckpointStore checkpoints;
    private final Clock clock;
    private final Duration pollInterval;
    private final BatchProcessor.Backoff backoff;
    private final PollerMetrics metrics;
    private final AtomicBoolean warnedIgnoredFailures = new AtomicBoolean();

    ShardWorkerFactory(DynamoDbStreamsClient streams, String streamArn, String functionArn, EsmSettings settings,
            BatchInvoker invoker, FailureDestination destination, CheckpointStore checkpoints, Clock clock,
            Duration pollInterval, BatchProcessor.Backoff backoff, PollerMetrics metrics) {
        this.streams = streams;
        this.streamArn = streamArn;
        this.functionArn = functionArn;
        this.settings = settings;
        this.invoker = invoker;
        this.destination = destination;
        this.checkpoints = checkpoints;
        this.clock = clock;
        this.pollInterval = pollInterval;
        this.backoff = backoff;
        this.metrics = metrics;
    }

    /** A worker that reads {@code shardId} after {@code checkpoint} (null: from its oldest record). */
    ShardWorker create(String shardId, String checkpoint, ShardWorker.Poller poller) {
        ShardWorker worker = new ShardWorker(streamArn, shardId, checkpoint, streams, settings,
                StreamRecordFilter.of(settings.filterPatterns()), pollInterval, backoff, checkpoints, clock, metrics,
                poller);
        worker.processor(new BatchProcessor(shardId, streamArn, functionArn, settings, invoker, destination, clock,
                backoff, metrics, warnedIgnoredFailures));
        return worker;
    }
}
