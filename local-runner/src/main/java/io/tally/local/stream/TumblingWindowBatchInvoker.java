package io.tally.local.stream;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.events.models.TimeWindow;
import io.tally.local.lambda.LocalLambdaContext;
import io.tally.stream.SdkToLambdaRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Invokes a tumbling-window handler ({@code RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse>}) as
 * Lambda does with {@code TumblingWindowInSeconds}: each event carries the shard id, the window (start inclusive,
 * end exclusive, aligned to multiples of the window length since the epoch, by the records' approximate creation
 * time) and the {@code state} the previous response for the same shard and window returned ({@code {}} at the start
 * of a window).
 *
 * <p>Records of different windows never share an event: a batch that spans windows is delivered as one event per
 * window, in order. If a later window's event fails, the earlier ones stay done and the failure is reported from the
 * first record of the failed window, as {@code batchItemFailures}.
 *
 * <p>The state of a response that reports {@code batchItemFailures} is kept: the records before the failed one are
 * checkpointed and never delivered again, so their contribution lives only in that state. When the handler throws,
 * the previous state stays and the retry gets it again.
 *
 * <p>The final invocation of a window ({@code isFinalInvokeForWindow}, no records, the window's last state) is made
 * when the shard's next records belong to a later window, before they are delivered, and for every window still open
 * when the poller stops ({@link #endWindows()}); Lambda makes it when the window's time ends. If it fails, the batch
 * that was to follow fails and is delivered again, after a final invocation again. A window is never terminated early
 * here ({@code isWindowTerminatedEarly} is always false).
 */
public final class TumblingWindowBatchInvoker implements BatchInvoker {
    private static final Logger LOG = LoggerFactory.getLogger(TumblingWindowBatchInvoker.class);
    private final String functionName;
    private final String streamArn;
    private final long windowSeconds;
    private final RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> handler;
    private final Duration timeout;
    private final Clock clock;
    /** The latest window and its state, per shard; an older window's state is of no further use. */
    private final Map<String, WindowState> states = new ConcurrentHashMap<>();

    private record WindowState(Instant start, Map<String, String> state) {
    }

    /** @param window {@link EsmSettings#tumblingWindow()}, more than zero */
    public TumblingWindowBatchInvoker(String functionName, String streamArn, Duration window,
            RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> handler) {
        this(functionName, streamArn, window, handler, LambdaBatchInvoker.DEFAULT_TIMEOUT, Clock.systemUTC());
    }

    public TumblingWindowBatchInvoker(String functionName, String streamArn, Duration window,
            RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> handler, Duration timeout, Clock clock) {
        this.functionName = Objects.requireNonNull(functionName, "functionName");
        this.streamArn = Objects.requireNonNull(streamArn, "streamArn");
        this.windowSeconds = window.toSeconds();
        if (windowSeconds <= 0 || !window.equals(Duration.ofSeconds(windowSeconds))) {
            throw new IllegalArgumentException("a tumbling window is a positive number of seconds, not " + window);
        }
        this.handler = Objects.requireNonNull(handler, "handler");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public InvocationResult invoke(String shardId, List<Record> records) {
        int from = 0;
        while (from < records.size()) {
            Instant start = windowStart(records.get(from));
            int to = from + 1;
            while (to < records.size() && windowStart(records.get(to)).equals(start)) {
                to++;
            }
            InvocationResult result = invokeWindow(shardId, start, records.subList(from, to));
            if (result.functionError().isPresent() && from > 0) {
                return InvocationResult.batchItemFailures(List.of(records.get(from).dynamodb().sequenceNumber()));
            }
            if (!result.isSuccess()) {
                return result;
            }
            from = to;
        }
        return InvocationResult.success();
    }

    private InvocationResult invokeWindow(String shardId, Instant start, List<Record> records) {
        WindowState previous = states.get(shardId);
        if (previous != null && !previous.start().equals(start)) {
            InvocationResult ended = endWindow(shardId, previous);
            if (!ended.isSuccess()) {
                return ended.functionError().isPresent() ? ended
                        : InvocationResult.functionError(new IllegalStateException("the final invocation of window "
                        + previous.start() + " of shard " + shardId + " reported batch item failures"));
            }
            previous = null;
        }
        Map<String, String> state = previous != null && previous.start().equals(start)
                ? new HashMap<>(previous.state()) : new HashMap<>();
        DynamodbTimeWindowEvent event = event(shardId, start, records, state, false);
        LocalLambdaContext context = new LocalLambdaContext(functionName, timeout, clock);
        return InvocationResult.invoke(() -> handler.handleRequest(event, context), response -> {
            Map<String, String> next =
                    response == null || response.getState() == null ? Map.of() : response.getState();
            states.put(shardId, new WindowState(start, new HashMap<>(next)));
            return InvocationResult.answered(response == null ? null : response.getBatchItemFailures(),
                    TimeWindowEventResponse.BatchItemFailure::getItemIdentifier);
        });
    }

    /** The event of an invocation of the window that starts at {@code start}; never terminated early here. */
    private DynamodbTimeWindowEvent event(String shardId, Instant start, List<Record> records,
                                          Map<String, String> state, boolean finalInvocation) {
        return DynamodbTimeWindowEvent.builder()
                .withRecords(SdkToLambdaRecords.records(records, streamArn))
                .withWindow(TimeWindow.builder()
                        .withStart(start.toString())
                        .withEnd(start.plusSeconds(windowSeconds).toString())
                        .build())
                .withState(state)
                .withShardId(shardId)
                .withEventSourceArn(streamArn)
                .withIsFinalInvokeForWindow(finalInvocation)
                .withIsWindowTerminatedEarly(false)
                .build();
    }

    /** The final invocation of the shard's window: its last state, no records. */
    private InvocationResult endWindow(String shardId, WindowState window) {
        DynamodbTimeWindowEvent event = event(shardId, window.start(), List.of(), new HashMap<>(window.state()), true);
        LocalLambdaContext context = new LocalLambdaContext(functionName, timeout, clock);
        return InvocationResult.invoke(() -> handler.handleRequest(event, context), response -> {
            InvocationResult result = InvocationResult.answered(
                    response == null ? null : response.getBatchItemFailures(),
                    TimeWindowEventResponse.BatchItemFailure::getItemIdentifier);
            if (result.isSuccess()) {
                states.remove(shardId, window);
            }
            return result;
        });
    }

    /**
     * Makes the final invocation of every window still open (the poller stops): the handler releases what it keeps
     * in the state. One that fails is logged; its window's state is kept.
     */
    @Override
    public void endWindows() {
        for (Map.Entry<String, WindowState> open : Map.copyOf(states).entrySet()) {
            if (open.getValue().state().isEmpty()) {
                states.remove(open.getKey(), open.getValue());
                continue;
            }
            InvocationResult result = endWindow(open.getKey(), open.getValue());
            if (!result.isSuccess()) {
                LOG.warn("the final invocation of window {} of shard {} failed: {}", open.getValue().start(),
                        open.getKey(), result);
            }
        }
    }

    private Instant windowStart(Record record) {
        Instant created = record.dynamodb() == null || record.dynamodb().approximateCreationDateTime() == null
                ? clock.instant() : record.dynamodb().approximateCreationDateTime();
        return Instant.ofEpochSecond(Math.floorDiv(created.getEpochSecond(), windowSeconds) * windowSeconds);
    }

    @Override
    public String toString() {
        return "TumblingWindowBatchInvoker[" + functionName + ", " + windowSeconds + " s]";
    }
}
