package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

class TransactionsTest {
    private static final TransactWriteItemsRequest REQUEST = TransactWriteItemsRequest.builder().build();

    @Test
    void write_conflictThenSuccess_retriesAndSucceeds() {
        ScriptedClient client = new ScriptedClient(cancelled("None", "TransactionConflict", "None"), null);

        Transactions.write(client, REQUEST);

        assertThat(client.calls).isEqualTo(2);
    }

    @Test
    void write_conflictOnEveryAttempt_givesUpAfterTheLastAttempt() {
        TransactionCanceledException conflict = cancelled("TransactionConflict", "None", "None");
        ScriptedClient client = new ScriptedClient(conflict, conflict, conflict, null);

        assertThatThrownBy(() -> Transactions.write(client, REQUEST)).isSameAs(conflict);
        assertThat(client.calls).isEqualTo(Transactions.ATTEMPTS);
    }

    @Test
    void write_failedConditionBesideAConflict_doesNotRetry() {
        TransactionCanceledException cancelled = cancelled("ConditionalCheckFailed", "TransactionConflict", "None");
        ScriptedClient client = new ScriptedClient(cancelled, null);

        assertThatThrownBy(() -> Transactions.write(client, REQUEST)).isSameAs(cancelled);
        assertThat(client.calls).isEqualTo(1);
    }

    @Test
    void write_cancellationWithoutReasons_doesNotRetry() {
        TransactionCanceledException cancelled = TransactionCanceledException.builder().message("cancelled").build();
        ScriptedClient client = new ScriptedClient(cancelled, null);

        assertThatThrownBy(() -> Transactions.write(client, REQUEST)).isSameAs(cancelled);
        assertThat(client.calls).isEqualTo(1);
    }

    @Test
    void conditionFailedAndOldItem_readTheReasonAtThePosition() {
        Map<String, AttributeValue> item = Map.of("pk", AttributeValue.fromS("P"));
        TransactionCanceledException e = TransactionCanceledException.builder()
                .cancellationReasons(
                        CancellationReason.builder().code("ConditionalCheckFailed").item(item).build(),
                        CancellationReason.builder().code("None").build(),
                        CancellationReason.builder().code("ConditionalCheckFailed").build())
                .build();

        assertThat(Transactions.conditionFailed(e, 0)).isTrue();
        assertThat(Transactions.conditionFailed(e, 1)).isFalse();
        assertThat(Transactions.conditionFailed(e, 2)).isTrue();
        assertThat(Transactions.conditionFailed(e, 3)).isFalse();
        assertThat(Transactions.oldItem(e, 0)).isEqualTo(item);
        assertThat(Transactions.oldItem(e, 2)).isNull();
    }

    @Test
    void conflicted_isAnyReasonATransactionConflict_whateverElseRefused() {
        assertThat(Transactions.conflicted(cancelled("None", "TransactionConflict"))).isTrue();
        assertThat(Transactions.conflicted(cancelled("ConditionalCheckFailed", "TransactionConflict"))).isTrue();
        assertThat(Transactions.conflicted(cancelled("ConditionalCheckFailed", "None"))).isFalse();
        assertThat(Transactions.conflicted(cancelled("ThrottlingError"))).isFalse();
        assertThat(Transactions.conflicted(TransactionCanceledException.builder().message("c").build())).isFalse();
    }

    private static TransactionCanceledException cancelled(String... codes) {
        CancellationReason[] reasons = new CancellationReason[codes.length];
        for (int i = 0; i < codes.length; i++) {
            reasons[i] = CancellationReason.builder().code(codes[i]).build();
        }
        return TransactionCanceledException.builder().message("cancelled").cancellationReasons(reasons).build();
    }

    /** Answers each call with the next scripted outcome: an exception to throw, or null for success. */
    private static final class ScriptedClient implements DynamoDbClient {
        private final List<TransactionCanceledException> outcomes;
        private int calls;

        ScriptedClient(TransactionCanceledException... outcomes) {
            this.outcomes = Arrays.asList(outcomes);
        }

        @Override
        public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
            if (calls >= outcomes.size()) {
                throw new AssertionError("unexpected call " + (calls + 1));
            }
            TransactionCanceledException outcome = outcomes.get(calls++);
            if (outcome != null) {
                throw outcome;
            }
            return TransactWriteItemsResponse.builder().build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }
}
