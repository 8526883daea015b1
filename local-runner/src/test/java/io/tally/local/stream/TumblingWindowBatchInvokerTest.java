package io.tally.local.stream;

import static io.tally.testkit.RecordFixtures.records;
import static io.tally.testkit.RecordFixtures.sequenceNumber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Records n are written n seconds after 00:00, so with 60 s windows records 1..59 share the first window. */
class TumblingWindowBatchInvokerTest {
    private static final String STREAM_ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-01T00:00:00.000";

    private final List<DynamodbTimeWindowEvent> events = new ArrayList<>();

    @Test
    void batchesOfOneWindow_invoked_carryShardWindowAndTheStateOfThePreviousResponse() {
        TumblingWindowBatchInvoker invoker = invoker(TumblingWindowBatchInvokerTest::countRecords);

        invoker.invoke("shard-1", records(1, 3));
        invoker.invoke("shard-1", records(4, 5));

        assertThat(events).hasSize(2);
        DynamodbTimeWindowEvent first = events.get(0);
        assertThat(first.getShardId()).isEqualTo("shard-1");
        assertThat(first.getEventSourceArn()).isEqualTo(STREAM_ARN);
        assertThat(first.getWindow().getStart()).isEqualTo("2024-01-01T00:00:00Z");
        assertThat(first.getWindow().getEnd()).isEqualTo("2024-01-01T00:01:00Z");
        assertThat(first.getState()).isEmpty();
        assertThat(first.getIsFinalInvokeForWindow()).isFalse();
        assertThat(first.getIsWindowTerminatedEarly()).isFalse();
        assertThat(first.getRecords()).hasSize(3);
        assertThat(events.get(1).getState()).containsEntry("count", "3");
    }

    @Test
    void stateOfOneShard_notSeenByAnotherShard() {
        TumblingWindowBatchInvoker invoker = invoker(TumblingWindowBatchInvokerTest::countRecords);

        invoker.invoke("shard-1", records(1, 3));
        invoker.invoke("shard-2", records(4, 5));

        assertThat(events.get(1).getShardId()).isEqualTo("shard-2");
        assertThat(events.get(1).getState()).isEmpty();
    }

    @Test
    void batchAcrossTwoWindows_deliveredAsOneEventPerWindow_theFirstEndedByAFinalInvocation_freshStateInTheSecond() {
        TumblingWindowBatchInvoker invoker = invoker(TumblingWindowBatchInvokerTest::countRecords);

        InvocationResult result = invoker.invoke("shard-1", records(58, 61));

        assertThat(result.isSuccess()).isTrue();
        assertThat(events).extracting(event -> event.getWindow().getStart())
                .containsExactly("2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:01:00Z");
        assertThat(events).extracting(event -> event.getRecords().size()).containsExactly(2, 0, 2);
        assertThat(events).extracting(DynamodbTimeWindowEvent::getIsFinalInvokeForWindow)
                .containsExactly(false, true, false);
        assertThat(events.get(1).getState()).containsEntry("count", "2");
        assertThat(events.get(2).getState()).isEmpty();
    }

    @Test
    void finalInvocationThatFails_failsTheBatchAfterIt_andIsMadeAgainWithItsState() {
        List<Boolean> fail = new ArrayList<>(List.of(false, true, false, false));
        TumblingWindowBatchInvoker invoker = invoker(event -> {
            if (fail.remove(0)) {
                throw new IllegalStateException("boom");
            }
            return countRecords(event);
        });
        invoker.invoke("shard-1", records(1, 2));

        InvocationResult failed = invoker.invoke("shard-1", records(61, 62));
        InvocationResult retried = invoker.invoke("shard-1", records(61, 62));

        assertThat(failed.functionError()).isPresent();
        assertThat(retried.isSuccess()).isTrue();
        assertThat(events).extracting(DynamodbTimeWindowEvent::getIsFinalInvokeForWindow)
                .containsExactly(false, true, true, false);
        assertThat(events.get(2).getState()).containsEntry("count", "2");
        assertThat(events.get(3).getState()).isEmpty();
    }

    @Test
    void endWindows_makesTheFinalInvocationOfEveryOpenWindowWithAState() {
        TumblingWindowBatchInvoker invoker = invoker(event -> event.getShardId().equals("shard-2")
                ? TimeWindowEventResponse.builder().withState(Map.of()).build() : countRecords(event));
        invoker.invoke("shard-1", records(1, 2));
        invoker.invoke("shard-2", records(3, 4));

        invoker.endWindows();
        invoker.endWindows();

        assertThat(events).hasSize(3);
        DynamodbTimeWindowEvent last = events.get(2);
        assertThat(last.getShardId()).isEqualTo("shard-1");
        assertThat(last.getIsFinalInvokeForWindow()).isTrue();
        assertThat(last.getRecords()).isEmpty();
        assertThat(last.getState()).containsEntry("count", "2");
    }

    @Test
    void secondWindowOfABatchThrows_firstWindowStaysDoneAndTheFailureStartsAtTheSecond() {
        TumblingWindowBatchInvoker invoker = invoker(event -> {
            if (event.getWindow().getStart().equals("2024-01-01T00:01:00Z")) {
                throw new IllegalStateException("boom");
            }
            return countRecords(event);
        });

        InvocationResult result = invoker.invoke("shard-1", records(58, 61));

        assertThat(result.batchItemFailures()).containsExactly(sequenceNumber(60));
    }

    @Test
    void firstWindowThrows_functionErrorAndTheStateStaysForTheRetry() {
        List<Boolean> fail = new ArrayList<>(List.of(false, true, false));
        TumblingWindowBatchInvoker invoker = invoker(event -> {
            if (fail.remove(0)) {
                throw new IllegalStateException("boom");
            }
            return countRecords(event);
        });

        invoker.invoke("shard-1", records(1, 2));
        InvocationResult failed = invoker.invoke("shard-1", records(3, 4));
        invoker.invoke("shard-1", records(3, 4));

        assertThat(failed.functionError()).isPresent();
        assertThat(events.get(2).getState()).containsEntry("count", "2");
    }

    @Test
    void responseWithBatchItemFailures_itsStateIsKept() {
        TumblingWindowBatchInvoker invoker = invoker(event -> {
            TimeWindowEventResponse response = countRecords(event);
            if (events.size() == 1) {
                response.setBatchItemFailures(List.of(new TimeWindowEventResponse.BatchItemFailure(sequenceNumber(2))));
                response.setState(Map.of("count", "1"));
            }
            return response;
        });

        InvocationResult partial = invoker.invoke("shard-1", records(1, 3));
        invoker.invoke("shard-1", records(2, 3));

        assertThat(partial.batchItemFailures()).containsExactly(sequenceNumber(2));
        assertThat(events.get(1).getState()).containsEntry("count", "1");
    }

    @Test
    void windowOfZeroOrFractionalSeconds_rejected() {
        assertThatThrownBy(() -> new TumblingWindowBatchInvoker("f", STREAM_ARN, Duration.ZERO, (e, c) -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TumblingWindowBatchInvoker("f", STREAM_ARN, Duration.ofMillis(1500),
                (e, c) -> null)).isInstanceOf(IllegalArgumentException.class);
    }

    private TumblingWindowBatchInvoker invoker(Function<DynamodbTimeWindowEvent, TimeWindowEventResponse> behaviour) {
        RequestHandler<DynamodbTimeWindowEvent, TimeWindowEventResponse> handler = (event, context) -> {
            events.add(event);
            return behaviour.apply(event);
        };
        return new TumblingWindowBatchInvoker("tally-window", STREAM_ARN, Duration.ofSeconds(60), handler);
    }

    /** A handler that counts the records of its window in the state. */
    private static TimeWindowEventResponse countRecords(DynamodbTimeWindowEvent event) {
        Map<String, String> state = new HashMap<>(event.getState());
        int count = Integer.parseInt(state.getOrDefault("count", "0")) + event.getRecords().size();
        state.put("count", Integer.toString(count));
        return TimeWindowEventResponse.builder().withState(state).build();
    }
}
