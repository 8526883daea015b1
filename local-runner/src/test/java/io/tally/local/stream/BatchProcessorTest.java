package io.tally.local.stream;

import static io.tally.testkit.RecordFixtures.T0;
import static io.tally.testkit.RecordFixtures.numbers;
import static io.tally.testkit.RecordFixtures.records;
import static io.tally.testkit.RecordFixtures.sequenceNumber;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** The event source mapping's rules for one batch, with a scripted function and no stream. */
class BatchProcessorTest {
    private static final String STREAM_ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-01T00:00:00.000";
    private static final String FUNCTION_ARN = "arn:aws:lambda:us-east-1:000000000000:function:f";
    private static final EsmSettings SETTINGS = EsmSettings.defaults()
            .withMaximumRetryAttempts(3)
            .withMaximumRecordAgeInSeconds(-1);

    private final List<List<Integer>> invocations = new ArrayList<>();
    private final List<Integer> checkpoints = new ArrayList<>();
    private final List<DiscardedBatch> discarded = new ArrayList<>();
    private final PollerMetrics metrics = new PollerMetrics();
    private final MutableClock clock = new MutableClock(T0.plusSeconds(3600));
    private boolean stopping;

    @Test
    void batch_functionSucceeds_checkpointsItsLastRecordOnce() {
        boolean completed = process(SETTINGS, records(1, 5), records -> InvocationResult.success());

        assertThat(completed).isTrue();
        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4, 5));
        assertThat(checkpoints).containsExactly(5);
        assertThat(discarded).isEmpty();
        assertThat(metrics.recordsProcessed()).isEqualTo(5);
    }

    @Test
    void batchItemFailures_twoRecordsReported_retryStartsAtTheLowestAndEarlierRecordsAreCheckpointed() {
        Script script = new Script(
                InvocationResult.batchItemFailures(List.of(sequenceNumber(7), sequenceNumber(4))),
                InvocationResult.success());

        process(SETTINGS, records(1, 10), script);

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), List.of(4, 5, 6, 7, 8, 9, 10));
        assertThat(checkpoints).containsExactly(3, 10);
        assertThat(metrics.retries()).isEqualTo(1);
        assertThat(metrics.recordsProcessed()).isEqualTo(10);
    }

    @Test
    void batchItemFailures_firstRecordReportedUntilRetriesRunOut_batchDiscardedWithoutBisecting() {
        process(SETTINGS.withMaximumRetryAttempts(1), records(1, 4),
                records -> InvocationResult.batchItemFailures(List.of(records.get(0).dynamodb().sequenceNumber())));

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4), List.of(1, 2, 3, 4));
        assertThat(discarded).singleElement().satisfies(batch -> {
            assertThat(numbers(batch.records())).containsExactly(1, 2, 3, 4);
            assertThat(batch.condition()).isEqualTo(DiscardedBatch.Condition.RETRY_ATTEMPTS_EXHAUSTED);
            assertThat(batch.approximateInvokeCount()).isEqualTo(2);
            // The function returned normally; AWS reports a function error only when it throws.
            assertThat(batch.functionError()).isNull();
        });
        assertThat(checkpoints).containsExactly(4);
    }

    @Test
    void batchItemFailures_identifierNotInTheBatch_wholeBatchRetried() {
        Script script = new Script(InvocationResult.batchItemFailures(List.of("no-such-sequence-number")),
                InvocationResult.success());

        process(SETTINGS.withBisectBatchOnFunctionError(false), records(1, 4), script);

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4), List.of(1, 2, 3, 4));
        assertThat(checkpoints).containsExactly(4);
    }

    @Test
    void batchItemFailures_emptyOrNullIdentifier_wholeBatchRetried() {
        Script script = new Script(
                InvocationResult.batchItemFailures(List.of("")),
                InvocationResult.batchItemFailures(Arrays.asList(sequenceNumber(3), null)),
                InvocationResult.success());

        process(SETTINGS.withBisectBatchOnFunctionError(false), records(1, 4), script);

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4), List.of(1, 2, 3, 4), List.of(1, 2, 3, 4));
        assertThat(checkpoints).containsExactly(4);
    }

    @Test
    void batchItemFailures_invalidIdentifierWithBisect_batchIsSplitLikeAFunctionError() {
        Script script = new Script(InvocationResult.batchItemFailures(List.of("")), InvocationResult.success(),
                InvocationResult.success());

        process(SETTINGS, records(1, 4), script);

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4), List.of(1, 2), List.of(3, 4));
    }

    @Test
    void batchItemFailures_reportBatchItemFailuresOff_responseIgnoredAndBatchCountsAsProcessed() {
        process(SETTINGS.withReportBatchItemFailures(false), records(1, 4),
                records -> InvocationResult.batchItemFailures(List.of(sequenceNumber(2))));

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4));
        assertThat(checkpoints).containsExactly(4);
    }

    @Test
    void functionThrowsOnOneRecord_bisectOn_onlyThatRecordIsDiscardedAndTheRestProcessedInOrder() {
        Function<List<Record>, InvocationResult> poisonThree = records -> numbers(records).contains(3)
                ? InvocationResult.functionError(new IllegalStateException("record 3 is poison"))
                : InvocationResult.success();

        boolean completed = process(SETTINGS, records(1, 8), poisonThree);

        assertThat(completed).isTrue();
        assertThat(invocations).containsExactly(
                List.of(1, 2, 3, 4, 5, 6, 7, 8),
                List.of(1, 2, 3, 4),
                List.of(1, 2),
                List.of(3, 4),
                List.of(3),
                List.of(4),
                List.of(5, 6, 7, 8));
        assertThat(discarded).singleElement().satisfies(batch -> {
            assertThat(numbers(batch.records())).containsExactly(3);
            assertThat(batch.condition()).isEqualTo(DiscardedBatch.Condition.RETRY_ATTEMPTS_EXHAUSTED);
            // 1 + MaximumRetryAttempts: every invocation that held record 3.
            assertThat(batch.approximateInvokeCount()).isEqualTo(4);
            assertThat(batch.functionError()).isEqualTo("Unhandled");
            assertThat(batch.errorMessage()).contains("record 3 is poison");
            assertThat(batch.shardId()).isEqualTo("shard-1");
            assertThat(batch.streamArn()).isEqualTo(STREAM_ARN);
            assertThat(batch.functionArn()).isEqualTo(FUNCTION_ARN);
        });
        assertThat(checkpoints).containsExactly(2, 3, 4, 8);
        assertThat(metrics.invocations()).isEqualTo(7);
        assertThat(metrics.retries()).isEqualTo(6);
        assertThat(metrics.recordsProcessed()).isEqualTo(7);
        assertThat(metrics.recordsDiscarded()).isEqualTo(1);
    }

    @Test
    void functionAlwaysThrows_bisectOff_wholeBatchRetriedThenDiscarded() {
        process(SETTINGS.withBisectBatchOnFunctionError(false).withMaximumRetryAttempts(2), records(1, 4),
                records -> InvocationResult.functionError(new IllegalStateException("down")));

        assertThat(invocations).hasSize(3).allSatisfy(batch -> assertThat(batch).containsExactly(1, 2, 3, 4));
        assertThat(discarded).singleElement().satisfies(batch -> {
            assertThat(numbers(batch.records())).containsExactly(1, 2, 3, 4);
            assertThat(batch.approximateInvokeCount()).isEqualTo(3);
        });
        assertThat(checkpoints).containsExactly(4);
    }

    @Test
    void functionThrows_noRetriesAllowed_batchDiscardedAfterTheFirstInvocationWithoutBisecting() {
        process(SETTINGS.withMaximumRetryAttempts(0), records(1, 4),
                records -> InvocationResult.functionError(new IllegalStateException("down")));

        assertThat(invocations).containsExactly(List.of(1, 2, 3, 4));
        assertThat(discarded).singleElement()
                .satisfies(batch -> assertThat(batch.approximateInvokeCount()).isEqualTo(1));
    }

    @Test
    void invokerItselfThrows_countsAsAFunctionError() {
        BatchInvoker throwing = (shardId, records) -> {
            invocations.add(numbers(records));
            if (invocations.size() == 1) {
                throw new IllegalStateException("adapter bug");
            }
            return InvocationResult.success();
        };

        processWith(SETTINGS.withBisectBatchOnFunctionError(false), records(1, 2), throwing);

        assertThat(invocations).containsExactly(List.of(1, 2), List.of(1, 2));
        assertThat(checkpoints).containsExactly(2);
    }

    @Test
    void oldRecordsAtTheStartOfABatch_discardedForAgeWithoutInvocation_restDelivered() {
        EsmSettings settings = SETTINGS.withMaximumRecordAgeInSeconds(60);
        // Records 1..3 were written more than 60 s before now, 4 and 5 less.
        clock.set(T0.plusSeconds(64));

        process(settings, records(1, 5), records -> InvocationResult.success());

        assertThat(discarded).singleElement().satisfies(batch -> {
            assertThat(numbers(batch.records())).containsExactly(1, 2, 3);
            assertThat(batch.condition()).isEqualTo(DiscardedBatch.Condition.RECORD_AGE_EXCEEDED);
            assertThat(batch.approximateInvokeCount()).isZero();
            assertThat(batch.functionError()).isNull();
        });
        assertThat(invocations).containsExactly(List.of(4, 5));
        assertThat(checkpoints).containsExactly(3, 5);
    }

    @Test
    void recordsExpireWhileRetrying_discardedForAgeWithTheInvocationsSoFar() {
        EsmSettings settings = SETTINGS.withMaximumRecordAgeInSeconds(60).withBisectBatchOnFunctionError(false);
        clock.set(T0.plusSeconds(10));
        Function<List<Record>, InvocationResult> failAndAge = records -> {
            clock.set(T0.plusSeconds(3600));
            return InvocationResult.functionError(new IllegalStateException("slow"));
        };

        process(settings, records(1, 3), failAndAge);

        assertThat(invocations).containsExactly(List.of(1, 2, 3));
        assertThat(discarded).singleElement().satisfies(batch -> {
            assertThat(batch.condition()).isEqualTo(DiscardedBatch.Condition.RECORD_AGE_EXCEEDED);
            assertThat(batch.approximateInvokeCount()).isEqualTo(1);
            assertThat(batch.functionError()).isEqualTo("Unhandled");
        });
        assertThat(checkpoints).containsExactly(3);
    }

    @Test
    void destinationFailsOnce_sendRetriedAndRecordsCheckpointedOnlyAfterItTookThem() {
        AtomicBoolean failedOnce = new AtomicBoolean();
        FailureDestination flaky = batch -> {
            if (failedOnce.compareAndSet(false, true)) {
                throw new IllegalStateException("disk full");
            }
            discarded.add(batch);
        };

        processWith(SETTINGS.withMaximumRetryAttempts(0), records(1, 2), flaky,
                recording(records -> InvocationResult.functionError(new IllegalStateException("down"))));

        assertThat(failedOnce).isTrue();
        assertThat(discarded).hasSize(1);
        assertThat(checkpoints).containsExactly(2);
    }

    @Test
    void pollerStopsWhileABatchIsFailing_returnsFalseWithoutCheckpointingTheFailedRecords() {
        Function<List<Record>, InvocationResult> failThenStop = records -> {
            stopping = true;
            return InvocationResult.functionError(new IllegalStateException("down"));
        };

        boolean completed = process(SETTINGS, records(1, 4), failThenStop);

        assertThat(completed).isFalse();
        assertThat(invocations).hasSize(1);
        assertThat(checkpoints).isEmpty();
        assertThat(discarded).isEmpty();
    }

    @Test
    void backoff_doublesPerFailureUpToItsMaximum() {
        BatchProcessor.Backoff backoff = new BatchProcessor.Backoff(Duration.ofMillis(100), Duration.ofMillis(500));

        assertThat(List.of(backoff.delay(1), backoff.delay(2), backoff.delay(3), backoff.delay(4), backoff.delay(50)))
                .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                        Duration.ofMillis(500), Duration.ofMillis(500));
        assertThat(BatchProcessor.Backoff.NONE.delay(7)).isZero();
    }

    private boolean process(EsmSettings settings, List<Record> batch, Function<List<Record>, InvocationResult> script) {
        return processWith(settings, batch, discarded::add, recording(script));
    }

    private boolean processWith(EsmSettings settings, List<Record> batch, BatchInvoker invoker) {
        return processWith(settings, batch, discarded::add, invoker);
    }

    private boolean processWith(EsmSettings settings, List<Record> batch, FailureDestination destination,
            BatchInvoker invoker) {
        BatchProcessor processor = new BatchProcessor("shard-1", STREAM_ARN, FUNCTION_ARN, settings, invoker,
                destination, clock, BatchProcessor.Backoff.NONE, metrics, new AtomicBoolean());
        return processor.process(batch, new BatchProcessor.Shard() {
            @Override
            public void checkpoint(Record last) {
                checkpoints.add(Integer.parseInt(last.dynamodb().sequenceNumber()));
            }

            @Override
            public boolean pause(Duration duration) {
                return !stopping;
            }

            @Override
            public boolean stopping() {
                return stopping;
            }
        });
    }

    private BatchInvoker recording(Function<List<Record>, InvocationResult> script) {
        return (shardId, records) -> {
            invocations.add(numbers(records));
            return script.apply(records);
        };
    }

    /** Results in turn; the last one repeats. */
    private static final class Script implements Function<List<Record>, InvocationResult> {
        private final List<InvocationResult> results;
        private int next;

        Script(InvocationResult... results) {
            this.results = Arrays.asList(results);
        }

        @Override
        public InvocationResult apply(List<Record> records) {
            InvocationResult result = results.get(Math.min(next, results.size() - 1));
            next++;
            return result;
        }
    }
}
