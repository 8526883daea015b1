package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.ApiException;
import io.tally.core.store.ChangedMeanwhile;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Requests;
import io.tally.core.store.Transaction;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
    private final TypedTable<T> table;

    private EntityTable(RouteContext context, ItemSchema<T> schema) {
        this.context = context;
        this.schema = schema;
        this.table = TypedTable.of(context.dynamo(), context.table(), schema);
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
        return table.get(key);
    }

    /** One page of the entities {@code query} finds, after {@code start} (null for the first page). */
    public QueryPage page(Query query, int limit, Map<String, AttributeValue> start, Set<String> cursorKey) {
        return table.page(query, limit, start, cursorKey);
    }

    /** The entity that was at the key, removed; empty when there was none (nothing is written then). */
    public Optional<T> delete(Key key) {
        return table.delete(key);
    }

    /**
     * Writes {@code next} of the current entity at the key (empty when there is none) if every entity it requires
     * exists, in one transaction: the checks and the put, on the condition that the item is still what was read (a
     * conditional put alone when it requires none).
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
            Condition still = before == null ? Condition.absent() : unchanged(old, schema.attributeNames());
            if (requires.length == 0) {
                // Nothing to check beside the item: one conditional put, not a transaction (half the write units).
                if (table.put(after, still).written()) {
                    return new Written<>(before, after);
                }
                continue;
            }
            Transaction write = Transaction.in(context.dynamo(), context.table());
            check(write, requires);
            write.put(schema, after, still).orElse(ChangedMeanwhile::new);
            try {
                write.commit();
                return new Written<>(before, after);
            } catch (ChangedMeanwhile e) {
                // The item changed between the read and the write: read it again.
            }
        }
        throw ApiException.conflict(key + " kept changing: try again");
    }

    /** Writes {@code entity} whole, whatever was at its key; true when an item was there (and is replaced). */
    public boolean replace(T entity) {
        return table.replace(entity);
    }

    /**
     * Creates {@code entity} if no item has its key and every entity it requires exists: one conditional put, or a
     * transaction of the checks and the put when it requires any.
     *
     * @throws ApiException {@code not_found} naming the first required entity that does not exist (before a taken key
     *                      is {@code taken}'s answer: what does not exist cannot be in conflict)
     */
    public T create(T entity, Supplier<ApiException> taken, Requires... requires) {
        if (requires.length == 0) {
            if (!table.putNew(entity)) {
                throw taken.get();
            }
            return entity;
        }
        Transaction write = Transaction.in(context.dynamo(), context.table());
        check(write, requires);
        write.putNew(schema, entity).orElse(taken);
        write.commit();
        return entity;
    }

    /**
     * The entity after {@code change}, made on the condition that it exists and, when {@code version} is not null, is
     * at that version; refused, {@code missing}'s answer when there is none and {@code stale}'s of the one there.
     */
    public T update(Key key, Update change, Long version, Supplier<ApiException> missing,
                    Function<T, ApiException> stale) {
        return table.update(key, change, Condition.exists().atVersion(version), current -> {
            throw stale.apply(current.orElseThrow(missing));
        });
    }

    private void check(Transaction write, Requires... requires) {
        for (Requires required : requires) {
            write.requireExists(context.registry().lookup(required.type().attributeValue()).key(required.id()))
                    .orElse(() -> ApiException.notFound(required.description() + " '" + required.id()
                            + "' does not exist"));
        }
    }

    /** Every attribute as read, and none of the entity's other attributes there (one a concurrent write added). */
    private static Condition unchanged(Map<String, AttributeValue> old, Set<String> attributes) {
        Condition unchanged = null;
        for (Map.Entry<String, AttributeValue> attribute : old.entrySet()) {
            unchanged = and(unchanged, Condition.is(attribute.getKey(), attribute.getValue()));
        }
        for (String name : attributes) {
            if (!old.containsKey(name)) {
                unchanged = and(unchanged, Condition.lacks(name));
            }
        }
        return unchanged;
    }

    private static Condition and(Condition first, Condition next) {
        return first == null ? next : first.and(next);
    }
}
