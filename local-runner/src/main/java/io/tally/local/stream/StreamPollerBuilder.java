package io.tally.local.stream;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Configures a {@link StreamPoller}; the stream, the invoker and the failure destination are required. */
public final class StreamPollerBuilder {
    // Package-private: the poller's constructor reads them.
    DynamoDbStreamsClient streams;
    String streamArn;
    BatchInvoker invoker;
    FailureDestination destination;
    EsmSettings settings = EsmSettings.defaults();
    CheckpointStore checkpoints = new InMemoryCheckpointStore();
    String functionName = "stream-consumer";
    Clock clock = Clock.systemUTC();
    Duration pollInterval = StreamPoller.DEFAULT_POLL_INTERVAL;
    Duration discoveryInterval = StreamPoller.DEFAULT_DISCOVERY_INTERVAL;
    Duration retryBackoff = StreamPoller.DEFAULT_RETRY_BACKOFF;
    Duration maxRetryBackoff = StreamPoller.DEFAULT_MAX_RETRY_BACKOFF;
    Duration shutdownTimeout = StreamPoller.DEFAULT_SHUTDOWN_TIMEOUT;

    StreamPollerBuilder() {
    }

    public StreamPollerBuilder streamsClient(DynamoDbStreamsClient value) {
        this.streams = value;
        return this;
    }

    public StreamPollerBuilder streamArn(String value) {
        this.streamArn = value;
        return this;
    }

    public StreamPollerBuilder invoker(BatchInvoker value) {
        this.invoker = value;
        return this;
    }

    public StreamPollerBuilder failureDestination(FailureDestination value) {
        this.destination = value;
        return this;
    }

    /** Default: {@link EsmSettings#defaults()}. */
    public StreamPollerBuilder settings(EsmSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /** Default: in memory, so every poller starts at the oldest record. */
    public StreamPollerBuilder checkpointStore(CheckpointStore value) {
        this.checkpoints = Objects.requireNonNull(value, "checkpointStore");
        return this;
    }

    /** The function's name, for its ARN in failure records and logs. */
    public StreamPollerBuilder functionName(String value) {
        this.functionName = Objects.requireNonNull(value, "functionName");
        return this;
    }

    /** The clock records' ages and lags are measured with. */
    public StreamPollerBuilder clock(Clock value) {
        this.clock = Objects.requireNonNull(value, "clock");
        return this;
    }

    /** How long a shard worker waits after a read that found nothing new. */
    public StreamPollerBuilder pollInterval(Duration value) {
        this.pollInterval = positive(value, "pollInterval");
        return this;
    }

    /** How often the stream is described to find new shards. */
    public StreamPollerBuilder discoveryInterval(Duration value) {
        this.discoveryInterval = positive(value, "discoveryInterval");
        return this;
    }

    /** The wait before the first retry of a batch, doubled for each further one up to {@code max}. */
    public StreamPollerBuilder retryBackoff(Duration initial, Duration max) {
        if (initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("retry backoff needs 0 <= initial <= max, not " + initial + ", "
                    + max);
        }
        this.retryBackoff = initial;
        this.maxRetryBackoff = max;
        return this;
    }

    public StreamPollerBuilder shutdownTimeout(Duration value) {
        this.shutdownTimeout = positive(value, "shutdownTimeout");
        return this;
    }

    public StreamPoller build() {
        return new StreamPoller(this);
    }

    private static Duration positive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, not " + value);
        }
        return value;
    }
}
