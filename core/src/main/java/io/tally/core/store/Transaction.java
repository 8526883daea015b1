package io.tally.core.store;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Writes and checks of several items, all or none (DynamoDB's {@code TransactWriteItems}), each on its condition, with
 * the client's answer for each refusal said where the action is added: no action positions to keep in step.
 *
 * <pre>{@code
 * Transaction write = Transaction.in(dynamo, table);
 * write.requireExists(Users.key(userId)).orElse(() -> UserStore.notFound(userId));
 * write.putNew(Post.SCHEMA, post).orElse(() -> ApiException.conflict("post '" + id + "' already exists"));
 * write.commit();
 * }</pre>
 *
 * <p>When conditions refuse, the first action in the order added whose answer is not null is thrown; an answer may see
 * the item as it was when refused (empty when there was none), so one check tells a missing item from one in another
 * state. For an order of answers that is not the order of the actions, {@link #commit(Function)} sees all refusals at
 * once. A transaction cancelled only by a concurrent request is retried ({@link Transactions#write}).
 */
public final class Transaction {
    private final DynamoDbClient dynamo;
    private final String table;
    private final List<TransactWriteItem> items = new ArrayList<>();
    private final List<Action<?>> actions = new ArrayList<>();

    private Transaction(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    public static Transaction in(DynamoDbClient dynamo, String table) {
        return new Transaction(dynamo, table);
    }

    /**
     * One action of the transaction, and the answer to its refusal.
     *
     * @param <T> what the item refused reads as
     */
    public static final class Action<T> {
        private final int index;
        private final Function<Map<String, AttributeValue>, T> reader;
        private Function<Optional<T>, ? extends RuntimeException> answer = current -> null;
        /** Whether the answer reads the refused item: one that does not never parses it. */
        private boolean readsItem;

        private Action(int index, Function<Map<String, AttributeValue>, T> reader) {
            this.index = index;
            this.reader = reader;
        }

        /** When this action's condition refuses, {@code answer} is thrown. */
        public void orElse(Supplier<? extends RuntimeException> answer) {
            this.answer = current -> answer.get();
            this.readsItem = false;
        }

        /**
         * When this action's condition refuses, what {@code answer} makes of the item as it was (empty when there was
         * none) is thrown; null defers to the next refused action.
         */
        public void orElse(Function<Optional<T>, ? extends RuntimeException> answer) {
            this.answer = answer;
            this.readsItem = true;
        }
    }

    /** The refusals of a cancelled transaction, by action. */
    public interface Refusals {
        /** Whether the action's condition refused. */
        boolean refused(Action<?> action);

        /** The item the action found when its condition refused, empty when there was none or it did not refuse. */
        <T> Optional<T> current(Action<T> action);
    }

    /** Writes the entity if its key is free. */
    public <T extends Record> Action<T> putNew(ItemSchema<T> schema, T entity) {
        return put(schema, entity, Condition.absent());
    }

    /** Writes the entity, whole, if the item at its key holds {@code condition}. */
    public <T extends Record> Action<T> put(ItemSchema<T> schema, T entity, Condition condition) {
        return put(schema.toItem(entity), condition, schema::fromItem);
    }

    /** Writes the entity, whole, whatever is at its key. */
    public <T extends Record> Action<T> put(ItemSchema<T> schema, T entity) {
        return put(schema.toItem(entity), null, schema::fromItem);
    }

    /**
     * Writes an item as given, if the item at its key holds {@code condition}: for an entity stored with attributes of
     * the writer's own beside its record's (a version, say), made from its schema's item.
     */
    public Action<Map<String, AttributeValue>> put(Map<String, AttributeValue> item, Condition condition) {
        return put(item, condition, found -> found);
    }

    private <T> Action<T> put(Map<String, AttributeValue> item, Condition condition,
                              Function<Map<String, AttributeValue>, T> reader) {
        Placeholders p = new Placeholders();
        String expression = condition == null ? null : condition.render(p);
        return add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                .conditionExpression(expression).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(onRefusal(condition))
                .build()).build(), reader);
    }

    /** Checks, without writing it, that an item is at the key (another domain's, say: read as its raw item). */
    public Action<Map<String, AttributeValue>> requireExists(Key key) {
        return check(key, Condition.exists(), item -> item);
    }

    /** Checks, without writing it, that the item at the key holds {@code condition}; read by {@code schema}. */
    public <T extends Record> Action<T> check(ItemSchema<T> schema, Key key, Condition condition) {
        return check(key, condition, schema::fromItem);
    }

    private <T> Action<T> check(Key key, Condition condition, Function<Map<String, AttributeValue>, T> reader) {
        Placeholders p = new Placeholders();
        String expression = condition.render(p);
        return add(TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table)
                .key(key.toAttributeMap()).conditionExpression(expression).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values())
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build(),
                reader);
    }

    /** Changes the item at the key if it holds {@code condition}. */
    public <T extends Record> Action<T> update(ItemSchema<T> schema, Key key, Update update, Condition condition) {
        Placeholders p = new Placeholders();
        String expression = update.render(p);
        String conditionExpression = condition.render(p);
        return add(TransactWriteItem.builder().update(software.amazon.awssdk.services.dynamodb.model.Update.builder()
                .tableName(table).key(key.toAttributeMap()).updateExpression(expression)
                .conditionExpression(conditionExpression).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values())
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build(),
                schema::fromItem);
    }

    /** Removes whatever is at the key (nothing, if nothing is). */
    public Action<Map<String, AttributeValue>> delete(Key key) {
        return delete(key, null, found -> found);
    }

    /** Removes the item at the key if it holds {@code condition}; a refusal sees it as stored. */
    public Action<Map<String, AttributeValue>> delete(Key key, Condition condition) {
        return delete(key, condition, found -> found);
    }

    /** Removes the item at the key if it holds {@code condition}. */
    public <T extends Record> Action<T> delete(ItemSchema<T> schema, Key key, Condition condition) {
        return delete(key, condition, schema::fromItem);
    }

    private <T> Action<T> delete(Key key, Condition condition, Function<Map<String, AttributeValue>, T> reader) {
        Placeholders p = new Placeholders();
        String expression = condition == null ? null : condition.render(p);
        return add(TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key.toAttributeMap())
                .conditionExpression(expression).expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(onRefusal(condition))
                .build()).build(), reader);
    }

    /** The item as it is, when a condition refuses; an action without a condition asks for nothing. */
    private static ReturnValuesOnConditionCheckFailure onRefusal(Condition condition) {
        return condition == null ? null : ReturnValuesOnConditionCheckFailure.ALL_OLD;
    }

    private <T> Action<T> add(TransactWriteItem item, Function<Map<String, AttributeValue>, T> reader) {
        Action<T> action = new Action<>(items.size(), reader);
        items.add(item);
        actions.add(action);
        return action;
    }

    /**
     * Writes all or nothing. When conditions refuse, throws the answer of the first refused action that has one (in
     * the order added), else the cancellation itself.
     */
    public void commit() {
        commit(refusals -> {
            for (Action<?> action : actions) {
                RuntimeException answer = answer(action, refusals);
                if (answer != null) {
                    return answer;
                }
            }
            return null;
        });
    }

    /**
     * Writes all or nothing. When conditions refuse, throws what {@code answer} makes of the refusals, or the
     * cancellation itself when it makes null.
     */
    public void commit(Function<Refusals, ? extends RuntimeException> answer) {
        if (items.isEmpty()) {
            throw new IllegalStateException("a transaction needs at least one action");
        }
        try {
            Transactions.write(dynamo, TransactWriteItemsRequest.builder().transactItems(items).build());
        } catch (TransactionCanceledException e) {
            RuntimeException answered = answer.apply(refusals(e));
            throw answered != null ? answered : e;
        }
    }

    private static <T> RuntimeException answer(Action<T> action, Refusals refusals) {
        if (!refusals.refused(action)) {
            return null;
        }
        return action.answer.apply(action.readsItem ? refusals.current(action) : Optional.empty());
    }

    private static Refusals refusals(TransactionCanceledException e) {
        return new Refusals() {
            @Override
            public boolean refused(Action<?> action) {
                return Transactions.conditionFailed(e, action.index);
            }

            @Override
            public <T> Optional<T> current(Action<T> action) {
                Map<String, AttributeValue> item = refused(action) ? Transactions.oldItem(e, action.index) : null;
                return item == null ? Optional.empty() : Optional.of(action.reader.apply(item));
            }
        };
    }
}
