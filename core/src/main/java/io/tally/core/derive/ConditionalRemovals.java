package io.tally.core.derive;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * What every {@link CascadeRunner} over the table does: read the candidates (consistent queries and batch reads, the
 * latter finished when DynamoDB leaves keys unprocessed) and delete each on the condition that it still belongs to
 * the removed item, i.e. carries its incarnation. A refused delete (removed meanwhile, or replaced by a dependant of a
 * later item of the same id) is left alone, which is what makes a run idempotent.
 */
public final class ConditionalRemovals {
    /** Calls of one BatchGetItem until every key is read; DynamoDB may leave keys unprocessed under load. */
    public static final int MAX_BATCH_ATTEMPTS = 8;
    /** BatchGetItem takes at most 100 keys. */
    public static final int BATCH_KEYS = 100;

    private final DynamoDbClient dynamo;
    private final String table;

    public ConditionalRemovals(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
    }

    public String table() {
        return table;
    }

    public QueryResponse query(QueryRequest request) {
        return dynamo.query(request);
    }

    /**
     * Deletes the item at {@code key} if its {@code attribute} is {@code incarnation}.
     *
     * @return 1 when it was deleted now, 0 when the condition refused
     */
    public int removeIf(Key key, String attribute, String incarnation) {
        try {
            dynamo.deleteItem(delete(table, key, attribute, incarnation));
            return 1;
        } catch (ConditionalCheckFailedException e) {
            return 0;
        }
    }

    /**
     * Removes the dependants of a removed item that live in a partition of their own (a favourite's tag links, a
     * team's memberships): every item of partition {@code pk} whose {@code attribute} is the removed
     * {@code incarnation}, whatever else is there.
     *
     * @return how many it removed now
     */
    public int removeInPartition(String pk, String attribute, String incarnation) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = query(partitionPage(table, pk, "pk, sk, " + attribute, start));
            for (Map<String, AttributeValue> item : page.items()) {
                if (isOf(item, attribute, incarnation)) {
                    removed += removeIf(keyOf(item), attribute, incarnation);
                }
            }
            start = next(page);
        } while (start != null);
        return removed;
    }

    /**
     * Removes the dependants of a removed item that lie one in each of its siblings' partitions (a tag's links over its
     * user's favourites, an employee's memberships over the organisation's teams). The siblings are the items of
     * partition {@code pk} whose sort keys begin with {@code prefix}, each naming its id in {@code idAttribute}; the
     * possible dependant of a sibling is at {@code dependantOf(id)}, read {@value #BATCH_KEYS} at a time and removed
     * if its {@code attribute} is the removed {@code incarnation}. A sibling removed meanwhile has a cascade of its own
     * that removes its partition, this dependant with it.
     *
     * <p>Why siblings and not an index that names the dependants directly: an index is eventually consistent, and a
     * dependant added just before its item was removed may not be in it yet; every read here is consistent.
     *
     * @return how many it removed now
     */
    public int removeAcross(String pk, String prefix, String idAttribute, Function<String, Key> dependantOf,
                            String attribute, String incarnation) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = query(prefixPage(table, pk, prefix, idAttribute, start));
            List<String> ids = page.items().stream().map(item -> item.get(idAttribute).s()).toList();
            for (int from = 0; from < ids.size(); from += BATCH_KEYS) {
                List<Key> keys = ids.subList(from, Math.min(ids.size(), from + BATCH_KEYS)).stream()
                        .map(dependantOf).toList();
                for (Map<String, AttributeValue> item : batchGet(batchGet(table, keys, "pk, sk, " + attribute))) {
                    if (isOf(item, attribute, incarnation)) {
                        removed += removeIf(keyOf(item), attribute, incarnation);
                    }
                }
            }
            start = next(page);
        } while (start != null);
        return removed;
    }

    /**
     * One consistent page of a partition, every item of it: the dependants of a removed item that live in a partition
     * of their own, whatever incarnation they were added to.
     */
    public static QueryRequest partitionPage(String table, String pk, String projection,
                                             Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk)))
                .projectionExpression(projection)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /** One consistent page of the items of a partition whose sort keys begin with {@code prefix}. */
    public static QueryRequest prefixPage(String table, String pk, String prefix, String projection,
                                          Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk), ":prefix",
                        AttributeValue.fromS(prefix)))
                .projectionExpression(projection)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /** A consistent read of up to {@value #BATCH_KEYS} possible dependants. */
    public static BatchGetItemRequest batchGet(String table, List<Key> keys, String projection) {
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(keys.stream().map(Key::toAttributeMap).toList())
                        .projectionExpression(projection)
                        .consistentRead(true)
                        .build()))
                .build();
    }

    /**
     * The delete of one dependant on the condition that it belongs to the removed incarnation. The condition also makes
     * a second removal (a redelivery) a refusal rather than a second REMOVE record.
     */
    public static DeleteItemRequest delete(String table, Key key, String attribute, String incarnation) {
        return DeleteItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .conditionExpression("#incarnation = :incarnation")
                .expressionAttributeNames(Map.of("#incarnation", attribute))
                .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS(incarnation)))
                .build();
    }

    /** Every item of a BatchGetItem on this table, asking again for the keys DynamoDB left unprocessed. */
    public List<Map<String, AttributeValue>> batchGet(BatchGetItemRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        BatchGetItemRequest next = request;
        for (int attempt = 1; ; attempt++) {
            BatchGetItemResponse response = dynamo.batchGetItem(next);
            items.addAll(response.responses().getOrDefault(table, List.of()));
            if (!response.hasUnprocessedKeys() || response.unprocessedKeys().isEmpty()) {
                return items;
            }
            if (attempt == MAX_BATCH_ATTEMPTS) {
                throw new IllegalStateException("keys still unprocessed after " + attempt + " BatchGetItem calls");
            }
            next = BatchGetItemRequest.builder().requestItems(response.unprocessedKeys()).build();
            pause(attempt);
        }
    }

    /** Whether an item read carries this incarnation in {@code attribute}. */
    public static boolean isOf(Map<String, AttributeValue> item, String attribute, String incarnation) {
        AttributeValue value = item.get(attribute);
        return value != null && incarnation.equals(value.s());
    }

    /** Where the next page of a query starts, or null after the last. */
    public static Map<String, AttributeValue> next(QueryResponse page) {
        return page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    }

    public static Key keyOf(Map<String, AttributeValue> item) {
        return new Key(item.get(TableSchema.PK).s(), item.get(TableSchema.SK).s());
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(1_000L, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to read unprocessed keys", e);
        }
    }
}
