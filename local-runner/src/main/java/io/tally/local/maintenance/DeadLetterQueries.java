package io.tally.local.maintenance;

import io.tally.core.DeadLetterItem;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The dead letters of a table ({@link DeadLetterItem}): found by querying the partitions of each day (its 16 slots
 * {@code DEADLETTER#<yyyy-MM-dd>#<slot>}, and {@code DEADLETTER#<yyyy-MM-dd>}, where letters filed before they were
 * spread lie), newest day first, for as many days back as letters live (their TTL), or by a scan of the whole table for
 * the ones older than that (DynamoDB Local never expires items).
 */
public record DeadLetterQueries(DynamoDbClient dynamo, String tableName, Clock clock) {
    /** Queries in flight at once: a day's letters are in 17 partitions. */
    static final int CONCURRENCY = 8;
    /** Days a query looks back by default: the retention, plus the day a record may predate its filing. */
    public static final int DEFAULT_DAYS = (int) DeadLetterItem.RETENTION.toDays() + 2;

    public DeadLetterQueries {
        Objects.requireNonNull(dynamo, "dynamo");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * A letter's id for the command line: {@code <day>/<sort key>}, e.g. {@code 2024-05-01/00000000000000004200#ev-1}
     * (the sort key may hold '#' but never '/'). The slot is left out: the sort key gives it.
     */
    public static String id(Map<String, AttributeValue> item) {
        return DeadLetterItem.dayOf(item.get(TableSchema.PK).s()) + "/" + item.get(TableSchema.SK).s();
    }

    /**
     * The key of an id as {@link #id} writes it, in the slot the sort key gives ({@code DEADLETTER#} in front of the
     * day is accepted too, and a slot after it is ignored).
     */
    public static Map<String, AttributeValue> key(String id) {
        return keys(id).get(0);
    }

    /**
     * The keys the letter of an id may have: in its slot, then in the day's partition without a slot (a letter filed
     * before letters were spread).
     */
    public static List<Map<String, AttributeValue>> keys(String id) {
        int slash = id.indexOf('/');
        if (slash <= 0 || slash == id.length() - 1) {
            throw new IllegalArgumentException("a dead letter's id is <day>/<sort key>, as 'list' prints it, not '"
                    + id + "'");
        }
        String day = id.substring(0, slash);
        day = DeadLetterItem.dayOf(day.startsWith(DeadLetterItem.PREFIX) ? day : DeadLetterItem.PREFIX + day);
        return DeadLetterItem.keys(day, id.substring(slash + 1)).stream().map(Key::toAttributeMap).toList();
    }

    /**
     * The letters filed on the last {@code days} days (today included), newest day first, each day in stream order
     * (of its sort keys, whatever the partition).
     */
    public List<Map<String, AttributeValue>> recent(int days) {
        List<List<Map<String, AttributeValue>>> byPartition = eachPartition(days, partition -> {
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse page = dynamo.query(query(partition).exclusiveStartKey(start).build());
                items.addAll(page.items());
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
            return items;
        });
        List<Map<String, AttributeValue>> letters = new ArrayList<>();
        int perDay = DeadLetterItem.PARTITIONS + 1;
        for (int day = 0; day < byPartition.size(); day += perDay) {
            List<Map<String, AttributeValue>> ofDay = new ArrayList<>();
            byPartition.subList(day, day + perDay).forEach(ofDay::addAll);
            ofDay.sort(Comparator.comparing(item -> item.get(TableSchema.SK).s()));
            letters.addAll(ofDay);
        }
        return letters;
    }

    /**
     * How many letters were filed on the last {@code days} days: one counting query per partition of each day (17), no
     * item read.
     */
    public long count(int days) {
        return eachPartition(days, partition -> {
            long count = 0;
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse page = dynamo.query(query(partition).select(Select.COUNT).exclusiveStartKey(start).build());
                count += page.count();
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            } while (start != null);
            return count;
        }).stream().mapToLong(Long::longValue).sum();
    }

    /**
     * What {@code query} gives for each partition of the last {@code days} days, newest day first, each day's
     * partitions in the order of {@link DeadLetterItem#partitions}: {@value #CONCURRENCY} queries at a time, since a
     * day has 17 partitions.
     */
    private <T> List<T> eachPartition(int days, Function<String, T> query) {
        List<String> partitions = days(days).stream().flatMap(day -> DeadLetterItem.partitions(day).stream()).toList();
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY, runnable -> {
            Thread thread = new Thread(runnable, "dead-letter-queries");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> answers = new ArrayList<>(partitions.size());
            for (String partition : partitions) {
                answers.add(pool.submit(() -> query.apply(partition)));
            }
            List<T> results = new ArrayList<>(answers.size());
            for (Future<T> answer : answers) {
                results.add(answer.get());
            }
            return results;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while querying the dead letters", e);
        } finally {
            pool.shutdownNow();
        }
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

    /** The letter with this id, in its slot or else filed before letters were spread; empty when there is none. */
    public Optional<Map<String, AttributeValue>> get(String id) {
        for (Map<String, AttributeValue> key : keys(id)) {
            Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(tableName).key(key).consistentRead(true))
                    .item();
            if (item != null && !item.isEmpty() && isDeadLetter(item)) {
                return Optional.of(item);
            }
        }
        return Optional.empty();
    }

    /**
     * Deletes the letter with this id, wherever it lies (in its slot, or filed before letters were spread); false when
     * there is none. Never deletes an item that is no dead letter.
     */
    public boolean delete(String id) {
        boolean deleted = false;
        for (Map<String, AttributeValue> key : keys(id)) {
            try {
                dynamo.deleteItem(r -> r.tableName(tableName).key(key)
                        .conditionExpression("#type = :type")
                        .expressionAttributeNames(Map.of("#type", TableSchema.ENTITY_TYPE))
                        .expressionAttributeValues(Map.of(":type",
                                AttributeValue.fromS(DeadLetterItem.TYPE.attributeValue()))));
                deleted = true;
            } catch (ConditionalCheckFailedException e) {
                // Not there (or no dead letter): the other key may hold it.
            }
        }
        return deleted;
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

    /** Today first, then each day before it ({@code yyyy-MM-dd}). */
    private List<String> days(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("days must be at least 1, not " + days);
        }
        Instant today = clock.instant().truncatedTo(ChronoUnit.DAYS);
        List<String> list = new ArrayList<>(days);
        for (int i = 0; i < days; i++) {
            list.add(DeadLetterItem.day(today.minus(Duration.ofDays(i))));
        }
        return list;
    }
}
