package io.tally.local.stream;

import static io.tally.testkit.RecordFixtures.records;
import static io.tally.testkit.RecordFixtures.sequenceNumber;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LambdaBatchInvokerTest {
    private static final String STREAM_ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-01T00:00:00.000";

    private final List<DynamodbEvent> events = new ArrayList<>();
    private final List<Context> contexts = new ArrayList<>();

    @Test
    void batch_invoked_handlerGetsTheLambdaEventAndAContextOfTheFunction() {
        InvocationResult result = invoker(event -> null).invoke("shard-1", records(1, 3));

        assertThat(result.isSuccess()).isTrue();
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.getRecords()).extracting(r -> r.getDynamodb().getSequenceNumber())
                    .containsExactly(sequenceNumber(1), sequenceNumber(2), sequenceNumber(3));
            assertThat(event.getRecords()).allSatisfy(r -> assertThat(r.getEventSourceARN()).isEqualTo(STREAM_ARN));
        });
        assertThat(contexts).singleElement().satisfies(context -> {
            assertThat(context.getFunctionName()).isEqualTo("tally-stream");
            assertThat(context.getAwsRequestId()).isNotBlank();
            assertThat(context.getRemainingTimeInMillis()).isPositive();
        });
    }

    @Test
    void responseWithBatchItemFailures_reportedWithTheIdentifiersAsReturned() {
        StreamsEventResponse response = new StreamsEventResponse(Arrays.asList(
                new StreamsEventResponse.BatchItemFailure(sequenceNumber(2)),
                new StreamsEventResponse.BatchItemFailure(null)));

        InvocationResult result = invoker(event -> response).invoke("shard-1", records(1, 3));

        assertThat(result.batchItemFailures()).containsExactly(sequenceNumber(2), null);
        assertThat(result.functionError()).isEmpty();
    }

    @Test
    void responseWithoutFailures_success() {
        assertThat(invoker(event -> new StreamsEventResponse()).invoke("shard-1", records(1, 1)).isSuccess()).isTrue();
        assertThat(invoker(event -> new StreamsEventResponse(List.of())).invoke("shard-1", records(1, 1)).isSuccess())
                .isTrue();
    }

    @Test
    void handlerThrowsExceptionOrError_functionError() {
        IllegalStateException exception = new IllegalStateException("boom");
        AssertionError error = new AssertionError("broken invariant");

        assertThat(invoker(event -> { throw exception; }).invoke("shard-1", records(1, 1)).functionError())
                .containsSame(exception);
        assertThat(invoker(event -> { throw error; }).invoke("shard-1", records(1, 1)).functionError())
                .containsSame(error);
    }

    private LambdaBatchInvoker invoker(java.util.function.Function<DynamodbEvent, StreamsEventResponse> behaviour) {
        RequestHandler<DynamodbEvent, StreamsEventResponse> handler = (event, context) -> {
            events.add(event);
            contexts.add(context);
            return behaviour.apply(event);
        };
        return new LambdaBatchInvoker("tally-stream", STREAM_ARN, handler);
    }
}
