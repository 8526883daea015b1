package io.tally.stream;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import io.tally.stream.engine.DeadLetter;
import io.tally.stream.engine.DeadLetterSink;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.InMemoryDeadLetterSink;
import io.tally.stream.engine.InMemoryDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The handlers' own decisions, without a network: the engine runs on in-memory ports. */
class StreamHandlerTest {
    private final InMemoryDerivedStore store = new InMemoryDerivedStore();
    private Engine engine;

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    private StreamHandler handler(DeadLetterSink sink) {
        engine = Engine.builder().derivations(TestDerivations.blog()).store(store).deadLetters(sink)
                .publisher(new RecordingPublisher()).build();
        return new StreamHandler(engine);
    }

    private static DynamodbEvent fixture() {
        return EventLoader.loadDynamoDbEvent("events/blog-stream.json");
    }

    @Test
    void unconvertibleRecord_isDeadLetteredAndTheBatchGoesOn() {
        InMemoryDeadLetterSink sink = new InMemoryDeadLetterSink();

        StreamsEventResponse response = handler(sink).handleRequest(fixture(), null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(sink.letters()).extracting(DeadLetter::reason)
                .anySatisfy(reason -> assertThat(reason).contains("could not be converted"));
        assertThat(store.whole(Users.statsKey("u2"))).isPresent();
    }

    @Test
    void unconvertibleRecordWithSequence_andSinkDown_stopsTheBatchThere() {
        DynamodbEvent event = fixture();
        // A sequence number that is not a number: the record cannot become a SourceRecord.
        event.getRecords().get(2).getDynamodb().setSequenceNumber("not-a-number");
        DeadLetterSink down = letter -> {
            throw new IllegalStateException("table unavailable");
        };

        StreamsEventResponse response = handler(down).handleRequest(event, null);

        assertThat(response.getBatchItemFailures())
                .extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("not-a-number");
        // Records before it were processed, records after it were not.
        assertThat(store.whole(Users.statsKey("u1"))).isPresent();
        assertThat(store.whole(Users.statsKey("u2"))).isEmpty();
    }

    @Test
    void unconvertibleRecordWithoutSequence_andSinkDown_failsTheWholeBatch() {
        DeadLetterSink down = letter -> {
            throw new IllegalStateException("table unavailable");
        };
        StreamHandler handler = handler(down);

        assertThatThrownBy(() -> handler.handleRequest(fixture(), null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void windowedEventWithoutShardId_isRefused() {
        engine = Engine.builder().derivations(TestDerivations.blog()).store(store)
                .deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher()).build();
        DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
        event.setRecords(List.of(fixture().getRecords().get(1)));

        assertThatThrownBy(() -> new WindowedStreamHandler(engine).handleRequest(event, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void afterInvocation_runsOnceEvenWhenTheBatchFails() {
        java.util.concurrent.atomic.AtomicInteger flushes = new java.util.concurrent.atomic.AtomicInteger();
        engine = Engine.builder().derivations(TestDerivations.blog()).store(store)
                .deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher()).build();
        StreamHandler handler = new StreamHandler(engine, flushes::incrementAndGet);

        handler.handleRequest(fixture(), null);
        assertThat(flushes).hasValue(1);
        DynamodbEvent broken = fixture();
        broken.getRecords().get(0).getDynamodb().setSequenceNumber(null);
        try {
            handler.handleRequest(broken, null);
        } catch (RuntimeException expected) {
            // A record without a sequence number fails the whole invocation; the flush still runs.
        }
        assertThat(flushes).hasValue(2);
    }
}
