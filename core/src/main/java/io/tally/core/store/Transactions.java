package io.tally.core.store;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Runs write transactions and reads their cancellation reasons by action position. */
public final class Transactions {
    public static final String CONDITION_FAILED = "ConditionalCheckFailed";
    public static final String CONFLICT = "TransactionConflict";
    public static final int ATTEMPTS = 3;
    private static final long BASE_PAUSE_MILLIS = 10;

    private Transactions() {
    }

    /**
     * Writes, retrying a transaction that was cancelled only because another request touched one of its
     * items at the same time: nothing was written, and on the next attempt the conditions decide (two creates
     * of one post id end as a 201 and a 409 rather than a 503). What still conflicts after the last attempt
     * propagates and becomes a 503.
     */
    public static void write(DynamoDbClient dynamo, TransactWriteItemsRequest request) {
        for (int attempt = 1; ; attempt++) {
            try {
                dynamo.transactWriteItems(request);
                return;
            } catch (TransactionCanceledException e) {
                if (attempt >= ATTEMPTS || !conflictOnly(e)) {
                    throw e;
                }
                pause(attempt, e);
            }
        }
    }

    /** Whether the action at {@code index} was cancelled because its condition failed. */
    public static boolean conditionFailed(TransactionCanceledException e, int index) {
        CancellationReason reason = reason(e, index);
        return reason != null && CONDITION_FAILED.equals(reason.code());
    }

    /** The item an action with {@code ReturnValuesOnConditionCheckFailure ALL_OLD} saw, or null if there was none. */
    public static Map<String, AttributeValue> oldItem(TransactionCanceledException e, int index) {
        CancellationReason reason = reason(e, index);
        if (reason == null || !reason.hasItem() || reason.item().isEmpty()) {
            return null;
        }
        return reason.item();
    }

    /** Whether the transaction was cancelled, in part at least, because another request touched one of its items. */
    public static boolean conflicted(TransactionCanceledException e) {
        return e.hasCancellationReasons() && e.cancellationReasons().stream().anyMatch(r -> CONFLICT.equals(r.code()));
    }

    private static CancellationReason reason(TransactionCanceledException e, int index) {
        if (!e.hasCancellationReasons()) {
            return null;
        }
        List<CancellationReason> reasons = e.cancellationReasons();
        return index < reasons.size() ? reasons.get(index) : null;
    }

    private static boolean conflictOnly(TransactionCanceledException e) {
        if (!e.hasCancellationReasons()) {
            return false;
        }
        List<CancellationReason> reasons = e.cancellationReasons();
        return reasons.stream().anyMatch(r -> CONFLICT.equals(r.code()))
                && reasons.stream().noneMatch(r -> CONDITION_FAILED.equals(r.code()));
    }

    /** Jittered, growing pauses, so that the requests that collided do not collide again. */
    private static void pause(int attempt, TransactionCanceledException cause) {
        long millis = BASE_PAUSE_MILLIS * attempt + ThreadLocalRandom.current().nextLong(BASE_PAUSE_MILLIS);
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw cause;
        }
    }
}
