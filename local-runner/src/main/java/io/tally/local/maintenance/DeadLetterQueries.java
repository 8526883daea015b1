package io.tally.local.maintenance;

import io.tally.core.DeadLetterItem;
import io.tally.core.TableSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The dead letters of a table ({@link DeadLetterItem}): found by querying the partition of each day
 * ({@code DEADLETTER#<yyyy-MM-dd>}), newest day first, for as many days back as letters live (their TTL), or by a
 * scan of the whole table for the ones older than that (DynamoDB Local never expires items).
 */
public record DeadLetterQueries(DynamoDbClient dynamo, String tableName, Clock clock) {
    /** Days a query looks back by default: the retention, plus the day a record may predate its filing. */
    public static final int DEFAULT_DAYS = (int) DeadLetterItem.RETENTION.toDays() + 2;

    public DeadLetterQueries {
        Objects.requireNonNull(dynamo, "dynamo");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * A letter's id for the command line: {@code <day>/<sort key>}, e.g. {@code 2024-05-01/00000000000000004200#ev-1}
     * (the sort key may hold '#' but never '/').
     */
    public static String id(Map<String, AttributeValue> item) {
        return item.get(TableSchema.PK).s().substring(DeadLetterItem.PREFIX.length()) + "/" + item.get(TableSchema.SK).s();
    }

    /** The key of an id as {@link #id} writes it ({@code DEADLETTER#} in front of the day is accepted too). */
    public static Map<String, AttributeValue> key(String id) {
        int slash = id.indexOf('/');
        if (slash <= 0 || slash == id.length() - 1) {
            throw new IllegalArgumentException("a dead letter's id is <day>/<sort key>, as 'list' prints it, not '"
                    + id + "'");
        }
        String day = id.substring(0, slash);
        String pk = day.startsWith(DeadLetterItem.PREFIX) ? day : DeadLetterItem.PREFIX + day;
        return Map.of(TableSchema.PK, AttributeValue.fromS(pk), TableSchema.SK, AttributeValue.fromS(id.substring(slash + 1)));
    }

    /** The letters filed on the last {@code days} days (today included), newest day first, each day in stream order. */
    public List<Map<String, AttributeValue>> recent(int days) {
        List<Map<String, AttributeValue>> letters = new ArrayList<>();
        for (String partition : partitions(days)) {
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse page = dynamo.query(query(partition).exclusiveStartKey(start).build());
                letters.addAll(page.items());
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
        }
        return letters;
    }

    /** How many letters were filed on the last {@code days} days: one counting query per day, no item read. */
    public long count(int days) {
        long count = 0;
        for (String partition : partitions(days)) {
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse page = dynamo.query(query(partition).select(Select.COUNT).exclusiveStartKey(start).build());
                count += page.count();
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
        }
        return count;
    }

    /** Every letter in the table, whatever its day: a scan of the whole table (reads every item). */
    public List<Map<String, AttributeValue>> all() {
        List<Map<String, AttributeValue>> letters = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = dynamo.scan(ScanRequest.builder().tableName(tableName)
                    .filterExpression("begins_with(#pk, :prefix) AND #type = :type")
                    .expressionAttributeNames(Map.of("#pk", TableSchema.PK, "#type", TableSchema.ENTITY_TYPE))
                    .expressionAttributeValues(Map.of(":prefix", AttributeValue.fromS(DeadLetterItem.PREFIX),
                            ":type", AttributeValue.fromS(DeadLetterItem.TYPE.attributeValue())))
                    .exclusiveStartKey(start).build());
            letters.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        letters.sort((a, b) -> id(b).compareTo(id(a)));
        return letters;
    }

    /** The letter with this id; empty when there is none (or the item is no dead letter). */
    public Optional<Map<String, AttributeValue>> get(String id) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(tableName).key(key(id)).consistentRead(true))
                .item();
        return item == null || item.isEmpty() || !isDeadLetter(item) ? Optional.empty() : Optional.of(item);
    }

    /** Deletes the letter with this id; false when there is none. Never deletes an item that is no dead letter. */
    public boolean delete(String id) {
        try {
            dynamo.deleteItem(r -> r.tableName(tableName).key(key(id))
                    .conditionExpression("#type = :type")
                    .expressionAttributeNames(Map.of("#type", TableSchema.ENTITY_TYPE))
                    .expressionAttributeValues(Map.of(":type", AttributeValue.fromS(DeadLetterItem.TYPE.attributeValue()))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static boolean isDeadLetter(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
        return type != null && DeadLetterItem.TYPE.attributeValue().equals(type.s());
    }

    private QueryRequest.Builder query(String partition) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pk", AttributeValue.fromS(partition));
        return QueryRequest.builder().tableName(tableName).keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", TableSchema.PK)).expressionAttributeValues(values)
                .consistentRead(true);
    }

    /** Today's partition first, then each day before it. */
    private List<String> partitions(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("days must be at least 1, not " + days);
        }
        Instant today = clock.instant().truncatedTo(ChronoUnit.DAYS);
        List<String> partitions = new ArrayList<>(days);
        for (int i = 0; i < days; i++) {
            partitions.add(DeadLetterItem.partition(today.minus(Duration.ofDays(i))));
        }
        return partitions;
    }
}
