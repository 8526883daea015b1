package io.tally.core.store;

import io.tally.core.Items;
import io.tally.core.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * A query of one partition, of the table or of an index: the partition's key, what its sort keys start with or lie
 * between, the direction, a filter and the attributes to answer. Strongly consistent on the table and its local
 * indexes (a write just answered reads back), eventually consistent on a global index (DynamoDB offers no more there).
 * Immutable: each method answers a new query.
 */
public final class Query {
    private final String index;
    private final boolean global;
    private final String partitionAttribute;
    private final AttributeValue partition;
    private final KeyRange range;
    private final boolean backwards;
    private final Condition filter;
    private final List<String> projection;

    /** A condition on the range key: equal to {@code from} when exact, else from..to, else starting with from. */
    private record KeyRange(String attribute, AttributeValue from, AttributeValue to, boolean exact) {
        String render(Placeholders p) {
            String name = p.name(attribute);
            if (exact) {
                return name + " = " + p.value(from);
            }
            if (to != null) {
                return name + " BETWEEN " + p.value(from) + " AND " + p.value(to);
            }
            return "begins_with(" + name + ", " + p.value(from) + ")";
        }
    }

    private Query(String index, boolean global, String partitionAttribute, AttributeValue partition, KeyRange range,
                  boolean backwards, Condition filter, List<String> projection) {
        this.index = index;
        this.global = global;
        this.partitionAttribute = partitionAttribute;
        this.partition = partition;
        this.range = range;
        this.backwards = backwards;
        this.filter = filter;
        this.projection = projection;
    }

    /** The table's partition {@code pk}. */
    public static Query partition(String pk) {
        return new Query(null, false, TableSchema.PK, Items.s(pk), null, false, null, List.of());
    }

    /** A partition of a local index, which shares the table's partition key: strongly consistent. */
    public static Query localIndex(String index, String pk) {
        return new Query(index, false, TableSchema.PK, Items.s(pk), null, false, null, List.of());
    }

    /** A partition of a global index: its hash key {@code attribute} holds {@code value}. */
    public static Query globalIndex(String index, String attribute, String value) {
        return new Query(index, true, attribute, Items.s(value), null, false, null, List.of());
    }

    /** Only the sort keys ({@code sk} on the table) that start with {@code prefix}. */
    public Query startsWith(String prefix) {
        return startsWith(TableSchema.SK, prefix);
    }

    /** Only the items whose range key {@code attribute} starts with {@code prefix}. */
    public Query startsWith(String attribute, String prefix) {
        return withRange(new KeyRange(attribute, Items.s(prefix), null, false));
    }

    /** Only the item whose sort key ({@code sk} on the table) is {@code sk}: one item at most. */
    public Query at(String sk) {
        return withRange(new KeyRange(TableSchema.SK, Items.s(sk), null, true));
    }

    /** Only the items whose range key {@code attribute} lies from {@code from} to {@code to}, both included. */
    public Query between(String attribute, String from, String to) {
        return withRange(new KeyRange(attribute, Items.s(from), Items.s(to), false));
    }

    /** Highest range key first (newest first, for keys that start with a time). */
    public Query backwards() {
        return new Query(index, global, partitionAttribute, partition, range, true, filter, projection);
    }

    /** Only the items that hold {@code condition} are answered (they are read, and paid for, all the same). */
    public Query filter(Condition condition) {
        return new Query(index, global, partitionAttribute, partition, range, backwards, condition, projection);
    }

    /** Only these attributes of each item are answered. */
    public Query attributes(String... names) {
        return attributes(List.of(names));
    }

    /** Only these attributes of each item are answered. */
    public Query attributes(List<String> names) {
        return new Query(index, global, partitionAttribute, partition, range, backwards, filter, List.copyOf(names));
    }

    private Query withRange(KeyRange keyRange) {
        return new Query(index, global, partitionAttribute, partition, keyRange, backwards, filter, projection);
    }

    /** Every item the query finds in {@code table}, as stored (or as much of it as {@link #attributes} names). */
    public List<Map<String, AttributeValue>> all(DynamoDbClient dynamo, String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamo.queryPaginator(request(table, 1000, null)).items().forEach(items::add);
        return items;
    }

    boolean filtered() {
        return filter != null;
    }

    /** The request of one page: at most {@code limit} items from {@code start} (null for the first page). */
    public QueryRequest request(String table, int limit, Map<String, AttributeValue> start) {
        return builder(table).limit(limit).exclusiveStartKey(start).build();
    }

    /** The request that counts the query's items, from {@code start} (null for the first page). */
    public QueryRequest countRequest(String table, Map<String, AttributeValue> start) {
        return builder(table).select(Select.COUNT).exclusiveStartKey(start).build();
    }

    private QueryRequest.Builder builder(String table) {
        Placeholders p = new Placeholders();
        String keyCondition = p.name(partitionAttribute) + " = " + p.value(partition);
        if (range != null) {
            keyCondition += " AND " + range.render(p);
        }
        QueryRequest.Builder builder = QueryRequest.builder().tableName(table).indexName(index)
                .keyConditionExpression(keyCondition).scanIndexForward(!backwards);
        if (!global) {
            builder.consistentRead(true);
        }
        if (filter != null) {
            builder.filterExpression(filter.render(p));
        }
        if (!projection.isEmpty()) {
            List<String> names = new ArrayList<>();
            projection.forEach(name -> names.add(p.name(name)));
            builder.projectionExpression(String.join(", ", names));
        }
        return builder.expressionAttributeNames(p.names()).expressionAttributeValues(p.values());
    }
}
