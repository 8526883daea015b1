package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.ApiException;
import io.tally.core.store.Requests;
import io.tally.core.store.Transactions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A domain's entities of one type in the table, read and written as their record ({@link ItemSchema}): a consistent
 * get, a delete that answers what it removed, and a write of the next state from the current one in one transaction
 * with the checks that the entities it refers to exist (another domain's, by their {@link Lookup}). The write holds
 * only if the item is still as it was read (every attribute equal, none added); otherwise it reads again and retries,
 * so a concurrent change is never overwritten unseen. The condition names each attribute, so an entity of a few dozen
 * attributes is what it is for (DynamoDB caps an expression at 4 KB).
 *
 * @param <T> the entity
 */
public final class EntityTable<T extends Record> {
    /** Reads and writes of one change before it gives up as a conflict (409): another writer kept changing the item. */
    static final int ATTEMPTS = 5;

    private final RouteContext context;
    private final ItemSchema<T> schema;

    private EntityTable(RouteContext context, ItemSchema<T> schema) {
        this.context = context;
        this.schema = schema;
    }

    /** The entities {@code schema} reads, in the table of the routes' context. */
    public static <T extends Record> EntityTable<T> of(RouteContext context, ItemSchema<T> schema) {
        return new EntityTable<>(context, schema);
    }

    /** An entity another domain keeps that a write refers to: its type (a lookup), id, and its name in a 404. */
    public record Requires(EntityType type, String id, String description) {
    }

    /** A write's two states: {@code before} null when it created the entity. */
    public record Written<T>(T before, T after) {
        public boolean created() {
            return before == null;
        }
    }

    /** The entity at the key, read strongly consistent: a write just answered reads back. */
    public Optional<T> get(Key key) {
        Map<String, AttributeValue> item = context.dynamo().getItem(Requests.consistentGet(context.table(), key))
                .item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(schema.fromItem(item));
    }

    /** The entity that was at the key, removed; empty when there was none (nothing is written then). */
    public Optional<T> delete(Key key) {
        try {
            return Optional.of(schema.fromItem(context.dynamo().deleteItem(Requests.deleteExisting(context.table(),
                    key)).attributes()));
        } catch (ConditionalCheckFailedException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes {@code next} of the current entity at the key (empty when there is none) if every entity it requires
     * exists, in one transaction: the checks and the put, on the condition that the item is still what was read.
     *
     * @throws ApiException {@code not_found} naming the first required entity that does not exist; {@code conflict}
     *                      when the item kept changing under {@value #ATTEMPTS} attempts
     */
    public Written<T> put(Key key, Function<Optional<T>, T> next, Requires... requires) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Map<String, AttributeValue> old = context.dynamo().getItem(Requests.consistentGet(context.table(), key))
                    .item();
            T before = old == null || old.isEmpty() ? null : schema.fromItem(old);
            T after = next.apply(Optional.ofNullable(before));
            if (!schema.key(after).equals(key)) {
                throw new IllegalArgumentException("the next state of " + key + " is keyed " + schema.key(after));
            }
            List<TransactWriteItem> actions = new ArrayList<>();
            for (Requires required : requires) {
                actions.add(Requests.existsAction(context.table(),
                        context.registry().lookup(required.type().attributeValue()).key(required.id())));
            }
            actions.add(TransactWriteItem.builder().put(unchanged(Put.builder().tableName(context.table())
                    .item(schema.toItem(after)), before == null ? null : old, schema.attributeNames()).build())
                    .build());
            try {
                Transactions.write(context.dynamo(), TransactWriteItemsRequest.builder().transactItems(actions)
                        .build());
                return new Written<>(before, after);
            } catch (TransactionCanceledException e) {
                for (int i = 0; i < requires.length; i++) {
                    if (Transactions.conditionFailed(e, i)) {
                        throw ApiException.notFound(requires[i].description() + " '" + requires[i].id()
                                + "' does not exist");
                    }
                }
                if (!Transactions.conditionFailed(e, requires.length)) {
                    throw e;
                }
                // The item changed between the read and the write: read it again.
            }
        }
        throw ApiException.conflict(key + " kept changing: try again");
    }

    /**
     * The put's condition: no item when none was read, else every attribute as read and none of the entity's other
     * attributes there (one a concurrent write added).
     */
    private static Put.Builder unchanged(Put.Builder put, Map<String, AttributeValue> old, Set<String> attributes) {
        if (old == null) {
            return put.conditionExpression(Requests.KEY_IS_FREE);
        }
        List<String> conditions = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        old.forEach((name, value) -> {
            String placeholder = "a" + names.size();
            names.put("#" + placeholder, name);
            values.put(":" + placeholder, value);
            conditions.add("#" + placeholder + " = :" + placeholder);
        });
        for (String name : attributes) {
            if (!old.containsKey(name)) {
                String placeholder = "#a" + names.size();
                names.put(placeholder, name);
                conditions.add("attribute_not_exists(" + placeholder + ")");
            }
        }
        return put.conditionExpression(String.join(" AND ", conditions)).expressionAttributeNames(names)
                .expressionAttributeValues(values);
    }
}
