package io.tally.stream.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Makes the writes of one repair: reads each item, checks it against the repair's guards, and replaces it on the
 * condition that no write has landed since the read ({@link RepairWrite}). A stream processor running meanwhile may
 * write an item between the read and the replacement: the read and the check are then made again, a few times.
 */
record RepairWriter(DynamoDbClient dynamo, String table) {
    /** The items of one TransactWriteItems. */
    static final int ITEMS_PER_TRANSACTION = 100;

    /** Reads, checks and writes of one repair before it reports the item as refused: a hot item keeps changing. */
    static final int ATTEMPTS = 3;

    /**
     * How the writes of one repair ended: written, refused by a guard, or not taken by DynamoDB ({@code failure} says
     * why: an item over its limits, throttling the client's retries did not outlast), in which case the repair
     * reports the item and goes on with the others.
     */
    record Outcome(Kind kind, String failure) {
        enum Kind { WRITTEN, REFUSED, FAILED }

        static final Outcome WRITTEN = new Outcome(Kind.WRITTEN, null);
        static final Outcome REFUSED = new Outcome(Kind.REFUSED, null);

        static Outcome failed(DynamoDbException e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            return new Outcome(Kind.FAILED, (code == null ? e.getClass().getSimpleName() : code) + ": " + message);
        }
    }

    /**
     * Makes the writes of one repair, all or none (the members of a shared item, its base item and partials, in one
     * transaction). A shared item with more members than a transaction takes ({@value #ITEMS_PER_TRANSACTION}: the
     * global totals' partials of every shard of a day at 1,000 partitions) is written in several, the base item in the
     * first: until the last has landed a reader may see a sum that counts some partials twice, and a repair cut short
     * between them leaves the item differing, which the next verify reports and the next repair completes (every write
     * is the whole item at the position, so writing it again changes nothing more).
     */
    Outcome write(List<RepairWrite> writes) {
        try {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                List<Map<String, AttributeValue>> current = new ArrayList<>(writes.size());
                for (RepairWrite write : writes) {
                    Map<String, AttributeValue> item = read(write);
                    if (!write.admits(item)) {
                        return Outcome.REFUSED;
                    }
                    current.add(item);
                }
                if (replace(writes, current)) {
                    return Outcome.WRITTEN;
                }
            }
            return Outcome.REFUSED;
        } catch (DynamoDbException e) {
            return Outcome.failed(e);
        }
    }

    /** The item as it is now, read consistently; empty when there is none. */
    private Map<String, AttributeValue> read(RepairWrite write) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table).key(write.key().toAttributeMap())
                .consistentRead(true)).item();
        return item == null ? Map.of() : item;
    }

    /** @return false when an item changed since it was read */
    private boolean replace(List<RepairWrite> writes, List<Map<String, AttributeValue>> current) {
        try {
            if (writes.size() == 1) {
                dynamo.putItem(writes.get(0).toPutItem(table, current.get(0)));
            } else {
                for (int from = 0; from < writes.size(); from += ITEMS_PER_TRANSACTION) {
                    List<TransactWriteItem> puts = new ArrayList<>(ITEMS_PER_TRANSACTION);
                    for (int i = from; i < Math.min(writes.size(), from + ITEMS_PER_TRANSACTION); i++) {
                        puts.add(TransactWriteItem.builder().put(writes.get(i).toPut(table, current.get(i))).build());
                    }
                    dynamo.transactWriteItems(r -> r.transactItems(puts));
                }
            }
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        } catch (TransactionCanceledException e) {
            if (e.cancellationReasons().stream().anyMatch(reason -> "ConditionalCheckFailed".equals(reason.code()))) {
                return false;
            }
            throw e;
        }
    }
}
