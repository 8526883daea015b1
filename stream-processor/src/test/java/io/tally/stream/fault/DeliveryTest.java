package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.stream.engine.SourceRecord;
import io.tally.stream.testing.RecordingPublisher;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The fault test's delivery of one shard: how it tells a shard that waits from one that is stuck. */
class DeliveryTest {
    private static final List<SourceRecord> RECORDS = records(5);

    private static List<SourceRecord> records(int count) {
        List<SourceRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new SourceRecord("ev-" + i, "INSERT", "shard-1", Long.toString(100 + i), Instant.EPOCH,
                    Map.of("pk", AttributeValue.fromS("P#" + i), "sk", AttributeValue.fromS("S")), null,
                    Map.of("pk", AttributeValue.fromS("P#" + i), "sk", AttributeValue.fromS("S"))));
        }
        return records;
    }

    private static Delivery delivery(Delivery.Invoker invoker) {
        return new Delivery(RECORDS, invoker, new Random(7), new RecordingPublisher(), event -> false, false, false,
                new FaultInterceptor());
    }

    /** A shard refused for good (seed 800's stall) fails once its refusals have lasted the limit, naming them. */
    @Test
    void refusedForGood_failsAfterTheLimitOfRefusalsInARow() {
        AtomicInteger calls = new AtomicInteger();
        Delivery stuck = delivery((from, to) -> {
            calls.incrementAndGet();
            return new Delivery.Outcome(Optional.of(RECORDS.get(from).sequenceNumber()), true, false);
        }).refusedForAtMost(Duration.ofMillis(200));

        assertThatThrownBy(stuck::run).isInstanceOf(AssertionError.class)
                .hasMessageContaining("no progress after 0 invocations").hasMessageContaining("refused in a row, over")
                .hasMessageContaining("at record 0 of 5");
        // Refusals 5 ms apart: the limit, not the 20,000 refusals of the invocation limit, ended it.
        assertThat(calls.get()).isBetween(2, 1_000);
    }

    /** A shard held for a while (another invocation's lease) goes on once the refusals stop. */
    @Test
    void refusedForAWhile_thenAccepted_isDone() {
        AtomicInteger calls = new AtomicInteger();
        Delivery waiting = delivery((from, to) -> calls.incrementAndGet() <= 10
                ? new Delivery.Outcome(Optional.of(RECORDS.get(from).sequenceNumber()), true, false)
                : new Delivery.Outcome(Optional.empty(), false, false)).refusedForAtMost(Duration.ofSeconds(30));

        waiting.run();

        assertThat(waiting.done()).isTrue();
    }
}
