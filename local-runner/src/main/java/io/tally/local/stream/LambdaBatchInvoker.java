package io.tally.local.stream;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.tally.local.lambda.LocalLambdaContext;
import io.tally.stream.SdkToLambdaRecords;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Invokes a stream handler ({@code RequestHandler<DynamodbEvent, StreamsEventResponse>}) in this JVM with the event
 * Lambda would build from the batch, and reads its {@code batchItemFailures}.
 */
public final class LambdaBatchInvoker implements BatchInvoker {
    /** What {@code Context.getRemainingTimeInMillis} counts down from, unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);

    private final String functionName;
    private final String streamArn;
    private final RequestHandler<DynamodbEvent, StreamsEventResponse> handler;
    private final Duration timeout;
    private final Clock clock;

    public LambdaBatchInvoker(String functionName, String streamArn,
            RequestHandler<DynamodbEvent, StreamsEventResponse> handler) {
        this(functionName, streamArn, handler, DEFAULT_TIMEOUT, Clock.systemUTC());
    }

    /** @param timeout the function's timeout; only reported to the handler through its context, not enforced */
    public LambdaBatchInvoker(String functionName, String streamArn,
            RequestHandler<DynamodbEvent, StreamsEventResponse> handler, Duration timeout, Clock clock) {
        this.functionName = Objects.requireNonNull(functionName, "functionName");
        this.streamArn = Objects.requireNonNull(streamArn, "streamArn");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public InvocationResult invoke(String shardId, List<Record> records) {
        DynamodbEvent event = SdkToLambdaRecords.event(records, streamArn);
        LocalLambdaContext context = new LocalLambdaContext(functionName, timeout, clock);
        return InvocationResult.invoke(() -> handler.handleRequest(event, context),
                response -> InvocationResult.answered(response == null ? null : response.getBatchItemFailures(),
                        StreamsEventResponse.BatchItemFailure::getItemIdentifier));
    }

    @Override
    public String toString() {
        return "LambdaBatchInvoker[" + functionName + "]";
    }
}
