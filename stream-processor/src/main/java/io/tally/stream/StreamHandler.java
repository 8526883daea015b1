package io.tally.stream;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.tally.core.logging.InvocationLog;
import io.tally.core.logging.LambdaLogging;
import io.tally.stream.engine.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The stream consumer for a plain {@code DynamodbEvent} (event source mapping without a tumbling window).
 *
 * <p>A {@code DynamodbEvent} carries no shard id, so this handler uses the stream ARN ({@code eventSourceARN}) as
 * the shard identity: every shard of the stream shares one watermark per derived item. That is exact only when one
 * shard is processed at a time, in stream order, and sequence numbers keep growing from one shard to the next:
 * DynamoDB Local polled one shard after another (the local runtime), or a table whose stream has a single open
 * shard. With several shards in parallel, a record of one shard could be judged against the watermark of another
 * and skipped. The deployment therefore uses
 * {@link WindowedStreamHandler}, whose event names the shard. Requires {@code ReportBatchItemFailures}.
 */
public final class StreamHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {
    /** When a record carries no eventSourceARN either. */
    static final String UNKNOWN_STREAM = "stream";

    private final Engine engine;
    private final Runnable afterInvocation;

    /** SnapStart priming, held here because a CRaC context need not keep its resources reachable. */
    @SuppressWarnings("unused")
    private Priming priming;

    /**
     * Production wiring from the environment ({@code TABLE_NAME}, {@code AWS_REGION}, {@code EVENT_BUS_NAME}, ...:
     * see {@link StreamWiring}); the handler primes itself before a SnapStart snapshot ({@link Priming}).
     */
    public StreamHandler() {
        this(StreamWiring.fromEnvironment(LambdaLogging.environment()));
    }

    /** As in Lambda, priming itself before a SnapStart snapshot. */
    private StreamHandler(StreamWiring.Processor processor) {
        this(processor.engine(), processor.afterInvocation());
        priming = Priming.register(processor.shards(), processor.primeTable());
    }

    StreamHandler(Engine engine) {
        this(engine, () -> { });
    }

    /**
     * @param afterInvocation runs after every invocation, whatever its outcome (the Lambda wiring flushes the
     *                        metrics there)
     */
    public StreamHandler(Engine engine, Runnable afterInvocation) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.afterInvocation = Objects.requireNonNull(afterInvocation, "afterInvocation");
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        try (InvocationLog log = InvocationLog.open(context == null ? null : context.getAwsRequestId())) {
            List<DynamodbEvent.DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
            String shardId = records.isEmpty() || records.get(0).getEventSourceARN() == null
                    ? UNKNOWN_STREAM : records.get(0).getEventSourceARN();
            List<StreamsEventResponse.BatchItemFailure> failures = new ArrayList<>();
            LambdaBatch.process(engine, shardId, records, context)
                    .ifPresent(sequence -> failures.add(new StreamsEventResponse.BatchItemFailure(sequence)));
            return new StreamsEventResponse(failures);
        } finally {
            afterInvocation.run();
        }
    }
}
