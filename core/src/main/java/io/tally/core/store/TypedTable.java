package io.tally.core.store;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The entities of one type in the table, read and written as their record ({@link ItemSchema}), in the SDK enhanced
 * client's model ({@code DynamoDbTable<T>}: get, put, update, delete and query of one item type), which itself maps no
 * Java record. Every read of one item is strongly consistent. A write on a condition answers what the item is when the
 * condition refuses it ({@code ReturnValuesOnConditionCheckFailure ALL_OLD}), so the caller tells a missing item from
 * one in another state without a second read: {@code refused} receives it and answers the result, or throws the
 * client's error.
 *
 * @param <T> the entity record
 */
public final class TypedTable<T extends Record> {
    private final DynamoDbClient dynamo;
    private final String table;
    private final ItemSchema<T> schema;

    private TypedTable(DynamoDbClient dynamo, String table, ItemSchema<T> schema) {
        this.dynamo = dynamo;
        this.table = table;
        this.schema = schema;
    }

    public static <T extends Record> TypedTable<T> of(DynamoDbClient dynamo, String table, ItemSchema<T> schema) {
        return new TypedTable<>(dynamo, table, schema);
    }

    public ItemSchema<T> schema() {
        return schema;
    }

    /** The entity at the key, if there is one. */
    public Optional<T> get(Key key) {
        Map<String, AttributeValue> item = dynamo.getItem(GetItemRequest.builder().tableName(table)
                .key(key.toAttributeMap()).consistentRead(true).build()).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(schema.fromItem(item));
    }

    /** Writes a new entity; false, with nothing written, when its key is taken. */
    public boolean putNew(T entity) {
        return put(entity, Condition.absent()).written();
    }

    /** Writes the entity, whole, over whatever is at its key; true when an item was there. */
    public boolean replace(T entity) {
        Map<String, AttributeValue> old = dynamo.putItem(PutItemRequest.builder().tableName(table)
                .item(schema.toItem(entity)).returnValues(ReturnValue.ALL_OLD).build()).attributes();
        return old != null && !old.isEmpty();
    }

    /**
     * What a conditional put found at its key: whether it wrote, whether an item was there (the one it replaced, or
     * the one that refused it), and that item, read as an entity only when asked for ({@link #previous}): a put that
     * only needs to know whether it created never reads the item it replaced.
     */
    public static final class Put<T extends Record> {
        private final boolean written;
        private final Map<String, AttributeValue> found;
        private final ItemSchema<T> schema;

        Put(boolean written, Map<String, AttributeValue> found, ItemSchema<T> schema) {
            this.written = written;
            this.found = found == null || found.isEmpty() ? null : found;
            this.schema = schema;
        }

        public boolean written() {
            return written;
        }

        /** Whether an item was at the key. */
        public boolean existed() {
            return found != null;
        }

        /** The item that was at the key, read by the schema; empty when there was none. */
        public Optional<T> previous() {
            return found == null ? Optional.empty() : Optional.of(schema.fromItem(found));
        }
    }

    /** Writes the entity, whole, if the item at its key holds {@code condition}; nothing is written when not. */
    public Put<T> put(T entity, Condition condition) {
        Placeholders p = new Placeholders();
        String expression = condition.render(p);
        PutItemRequest request = PutItemRequest.builder().tableName(table).item(schema.toItem(entity))
                .conditionExpression(expression).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values()).returnValues(ReturnValue.ALL_OLD)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
        try {
            return new Put<>(true, dynamo.putItem(request).attributes(), schema);
        } catch (ConditionalCheckFailedException e) {
            return new Put<>(false, e.hasItem() ? e.item() : null, schema);
        }
    }

    /**
     * Changes the entity at the key if it holds {@code condition}, and answers it changed; when the condition refuses,
     * answers what {@code refused} makes of the entity as it is (empty when there is none), or throws what it throws.
     */
    public T update(Key key, Update update, Condition condition, Function<Optional<T>, T> refused) {
        Placeholders p = new Placeholders();
        String expression = update.render(p);
        UpdateItemRequest request = UpdateItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .updateExpression(expression).conditionExpression(condition.render(p))
                .expressionAttributeNames(p.names()).expressionAttributeValues(p.values())
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
        try {
            return schema.fromItem(dynamo.updateItem(request).attributes());
        } catch (ConditionalCheckFailedException e) {
            return refused.apply(current(e));
        }
    }

    /**
     * Changes the entity at the key if it holds {@code condition}, reading nothing back; true when it did, false when
     * the condition refused (nothing is written then).
     */
    public boolean set(Key key, Update update, Condition condition) {
        Placeholders p = new Placeholders();
        String expression = update.render(p);
        try {
            dynamo.updateItem(UpdateItemRequest.builder().tableName(table).key(key.toAttributeMap())
                    .updateExpression(expression).conditionExpression(condition.render(p))
                    .expressionAttributeNames(p.names()).expressionAttributeValues(p.values()).build());
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** The entity that was at the key, removed; empty when there was none (nothing is written then). */
    public Optional<T> delete(Key key) {
        return delete(key, Condition.exists(), current -> null);
    }

    /**
     * Removes the entity at the key if it holds {@code condition}, and answers it as it was; when the condition
     * refuses, answers what {@code refused} makes of the entity as it is (empty when there is none), or throws.
     * Answers empty only if {@code refused} answers null.
     */
    public Optional<T> delete(Key key, Condition condition, Function<Optional<T>, T> refused) {
        Placeholders p = new Placeholders();
        DeleteItemRequest request = DeleteItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .conditionExpression(condition.render(p)).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values()).returnValues(ReturnValue.ALL_OLD)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
        try {
            return Optional.of(schema.fromItem(dynamo.deleteItem(request).attributes()));
        } catch (ConditionalCheckFailedException e) {
            return Optional.ofNullable(refused.apply(current(e)));
        }
    }

    /**
     * One page of the query: at most {@code limit} items from {@code start} (null for the first), and where the next
     * page starts, told by the items' {@code keyAttributes} (the table's, and the index's range key if on an index).
     * It asks for one item more, so that the last page says so ({@link QueryPage}).
     */
    public QueryPage page(Query query, int limit, Map<String, AttributeValue> start, Set<String> keyAttributes) {
        return QueryPage.of(dynamo.query(query.request(table, limit + 1, start)), limit, keyAttributes);
    }

    /** Every entity the query finds, read page by page. */
    public List<T> all(Query query) {
        return dynamo.queryPaginator(query.request(table, 1000, null)).items().stream().map(schema::fromItem)
                .toList();
    }

    /** The first entity the query finds, if any (a query that finds at most one, say): pages read as needed. */
    public Optional<T> first(Query query) {
        // A filter applies after the limit: a filtered query may need several items read for one answered.
        return dynamo.queryPaginator(query.request(table, query.filtered() ? 100 : 1, null)).items().stream()
                .findFirst().map(schema::fromItem);
    }

    private Optional<T> current(ConditionalCheckFailedException e) {
        return e.hasItem() && !e.item().isEmpty() ? Optional.of(schema.fromItem(e.item())) : Optional.empty();
    }
}
