package io.tally.local.stream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * How an invocation ended: success, a function error (the function threw), or a response naming failed records
 * ({@code batchItemFailures}), whose {@code itemIdentifier}s are kept as returned, invalid ones included, because the
 * poller decides what an invalid one means.
 */
public final class InvocationResult {
    private static final InvocationResult SUCCESS = new InvocationResult(null, List.of());

    private final Throwable functionError;
    private final List<String> batchItemFailures;

    private InvocationResult(Throwable functionError, List<String> batchItemFailures) {
        this.functionError = functionError;
        this.batchItemFailures = batchItemFailures;
    }

    public static InvocationResult success() {
        return SUCCESS;
    }

    public static InvocationResult functionError(Throwable error) {
        return new InvocationResult(Objects.requireNonNull(error, "error"), List.of());
    }

    /**
     * The function returned {@code batchItemFailures}; an empty list is a success, as on AWS.
     *
     * @param itemIdentifiers as returned; may hold nulls and empty strings
     */
    public static InvocationResult batchItemFailures(List<String> itemIdentifiers) {
        if (itemIdentifiers.isEmpty()) {
            return SUCCESS;
        }
        // List.copyOf rejects nulls, and a null identifier is a meaningful (invalid) answer here.
        return new InvocationResult(null, Collections.unmodifiableList(new ArrayList<>(itemIdentifiers)));
    }

    /**
     * The function's answer as read from its response: the item identifiers of its {@code batchItemFailures}, a
     * failure that is null counted with a null identifier; none named (or no list) is a success.
     *
     * @param failures   the response's {@code batchItemFailures}, or null when there is no response or no list
     * @param identifier a failure's {@code itemIdentifier}
     */
    public static <F> InvocationResult answered(List<F> failures, Function<F, String> identifier) {
        if (failures == null) {
            return SUCCESS;
        }
        List<String> identifiers = new ArrayList<>();
        failures.forEach(failure -> identifiers.add(failure == null ? null : identifier.apply(failure)));
        return batchItemFailures(identifiers);
    }

    /**
     * Invokes the function and reads its answer. Whatever escapes the handler, Error included, is a function error
     * to Lambda: the runtime reports it and the batch is retried.
     */
    public static <R> InvocationResult invoke(Supplier<R> function, Function<R, InvocationResult> answer) {
        R response;
        try {
            response = function.get();
        } catch (RuntimeException | Error e) {
            return functionError(e);
        }
        return answer.apply(response);
    }

    public boolean isSuccess() {
        return functionError == null && batchItemFailures.isEmpty();
    }

    /** What the function threw, if it did. */
    public Optional<Throwable> functionError() {
        return Optional.ofNullable(functionError);
    }

    /** The {@code itemIdentifier}s of the response; empty unless the function reported failed records. */
    public List<String> batchItemFailures() {
        return batchItemFailures;
    }

    /**
     * For a response naming failed records: the index in {@code records} of the failed record with the lowest sequence
     * number, or -1 if an identifier is empty or not in the batch (AWS then treats the whole batch as failed). The
     * records before it are processed.
     */
    public int lowestFailedIndex(List<Record> records) {
        Map<String, Integer> indexes = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            indexes.put(records.get(i).dynamodb().sequenceNumber(), i);
        }
        int lowest = Integer.MAX_VALUE;
        for (String identifier : batchItemFailures) {
            Integer index = identifier == null ? null : indexes.get(identifier);
            if (index == null) {
                return -1;
            }
            lowest = Math.min(lowest, index);
        }
        return lowest;
    }

    @Override
    public String toString() {
        if (functionError != null) {
            return "InvocationResult[functionError=" + functionError + "]";
        }
        return batchItemFailures.isEmpty() ? "InvocationResult[success]"
                : "InvocationResult[batchItemFailures=" + batchItemFailures + "]";
    }
}
