package io.tally.stream;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import io.tally.core.logging.InvocationLog;
import io.tally.core.logging.LambdaLogging;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardCursors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;

/**
 * The stream consumer of the deployment: the event source mapping has a tumbling window, because the
 * {@code DynamodbTimeWindowEvent} names the shard its records come from (watermarks are kept per shard), and because
 * its state carries the shard cursor's claim from one invocation of the shard to the next ({@link WindowState}): a
 * batch that completes leaves its claim in place for the next, which takes it over and stores the progress in one
 * write, instead of a claim and a release a batch. The last invocation of a window ({@code isFinalInvokeForWindow},
 * or {@code isWindowTerminatedEarly}) releases the claim, since the next window starts with an empty state. Derived
 * data lives in the table, not in the state. Requires {@code ReportBatchItemFailures} and ParallelizationFactor 1.
 */
public final class WindowedStreamHandler implements RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> {
    private final Engine engine;
    private final Runnable afterInvocation;
    private final ShardIdentity identity;

    /** SnapStart priming, held here because a CRaC context need not keep its resources reachable. */
    @SuppressWarnings("unused")
    private Priming priming;

    /**
     * Production wiring from the environment ({@code TABLE_NAME}, {@code AWS_REGION}, {@code EVENT_BUS_NAME}, ...:
     * see {@link StreamWiring}); the handler primes itself before a SnapStart snapshot ({@link Priming}).
     */
    public WindowedStreamHandler() {
        this(StreamWiring.fromEnvironment(LambdaLogging.environment()));
    }

    /** As in Lambda, priming itself before a SnapStart snapshot. */
    private WindowedStreamHandler(StreamWiring.Processor processor) {
        this(processor.engine(), processor.afterInvocation(), processor.identity());
        priming = Priming.register(processor.shards(), processor.primeTable());
    }

    WindowedStreamHandler(Engine engine) {
        this(engine, () -> { });
    }

    /**
     * @param afterInvocation runs after every invocation, whatever its outcome (the Lambda wiring flushes the
     *                        metrics there)
     */
    public WindowedStreamHandler(Engine engine, Runnable afterInvocation) {
        this(engine, afterInvocation, ShardIdentity.UNCHECKED);
    }

    WindowedStreamHandler(Engine engine, Runnable afterInvocation, ShardIdentity identity) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.afterInvocation = Objects.requireNonNull(afterInvocation, "afterInvocation");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    @Override
    public TimeWindowEventResponse handleRequest(DynamodbTimeWindowEvent event, Context context) {
        try (InvocationLog log = InvocationLog.open(context == null ? null : context.getAwsRequestId())) {
            List<DynamodbEvent.DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
            if (event.getShardId() == null && !records.isEmpty()) {
                // Without the shard, watermarks of different shards would mix: better to fail loudly than to skip.
                throw new IllegalArgumentException("time window event without shardId");
            }
            ShardCursors.Handover received = WindowState.handover(event.getState());
            boolean lastOfWindow = Boolean.TRUE.equals(event.getIsFinalInvokeForWindow())
                    || Boolean.TRUE.equals(event.getIsWindowTerminatedEarly());
            if (event.getShardId() == null) {
                // No records either: nothing to process, and no shard whose claim could be released.
                return new TimeWindowEventResponse(lastOfWindow ? new HashMap<>() : WindowState.of(received),
                        new ArrayList<>());
            }
            if (!records.isEmpty()) {
                identity.check(records.get(0).getEventSourceARN(), event.getShardId());
            }
            List<TimeWindowEventResponse.BatchItemFailure> failures = new ArrayList<>();
            LambdaBatch.Outcome outcome = LambdaBatch.process(engine, event.getShardId(), records, context,
                    new ShardCursors.Chain(received, !lastOfWindow));
            outcome.failure().ifPresent(sequence -> failures.add(new TimeWindowEventResponse.BatchItemFailure(sequence)));
            if (lastOfWindow && outcome.handover() != null) {
                // The engine releases the claim handed over at the window's end (the next window starts without this
                // state) unless the cursor could not be written: failing the invocation has it retried with the same
                // state, so the claim is not lost.
                throw new IllegalStateException("the shard cursor's claim handed over could not be released");
            }
            return new TimeWindowEventResponse(WindowState.of(outcome.handover()), failures);
        } finally {
            afterInvocation.run();
        }
    }
}
