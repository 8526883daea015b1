package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import io.tally.core.http.Body;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import io.tally.core.store.Query;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * An entity at a path, its routes declared as data ({@code Declaration.resource}): {@code GET} answers it,
 * {@code DELETE} removes it and answers what it removed, {@code PUT} creates or replaces it (201 with its location,
 * or 200), {@code POST} to its collection creates it under the id the body gives or a new one (201, or 409 for an id
 * taken), {@code PATCH} changes the fields the body gives under {@code If-Match}, and a list ({@code GET} of the
 * collection) answers a page of those a query finds. Everything goes through an
 * {@link EntityTable}: a write in one transaction with the checks that the entities it refers to exist; a put on the
 * condition that the item is still as read. The path's parameters are the entity's ids (each checked as an id, 400
 * otherwise), and a missing entity is 404 with the message the resource gives. An entity with a {@code version}
 * component is answered with it as its {@code ETag}. The routes are added, in the order declared, before the domain's
 * own ({@link Domain#routes}), with their access rules, summaries and the OpenAPI description of the entity.
 *
 * <pre>{@code
 * // Review.SCHEMA = ItemSchema.keyed(Review.class, REVIEW, "USER#<userId> / REVIEW#<itemId>").build()
 * EntityResource.at("/users/{userId}/reviews/{itemId}", Review.SCHEMA)
 *         .put(Access.owner("userId"), "Review a catalogue item (201 created, 200 replaced)", Fields.of(STARS, TEXT),
 *                 (ids, body, current, now) -> new Review(...), exists("userId", Users.USER),
 *                 exists("itemId", CATALOGUE_ITEM))
 *         .get(Access.ownerOrAdmin("userId"), "A user's review of an item")
 *         .delete(Access.owner("userId"), "Delete a review");
 * }</pre>
 *
 * @param <T> the entity
 */
public final class EntityResource<T extends Record> {
    private final String path;
    private final ItemSchema<T> schema;
    private final Function<Map<String, String>, Key> key;
    private String noun;
    private Function<Map<String, String>, String> missing;
    private final List<Declared> routes = new ArrayList<>();

    /**
     * The next state of the entity a {@code PUT} writes.
     *
     * @param ids     the path's ids, by parameter name
     * @param body    the request's body, its fields checked against those the route takes (an empty body when it may
     *                be left out and was)
     * @param current the entity as it is (empty when the put creates it); read again on each attempt, and empty in a
     *                first call before any read, whose answer is dropped and of which only a 400 counts: the function
     *                checks the body there (answered before the table is read), and is to have no other effect
     * @param now     the writer's clock, read on each attempt
     */
    @FunctionalInterface
    public interface Put<T> {
        T next(Map<String, String> ids, Body body, Optional<T> current, Instant now);
    }

    /**
     * The entity a {@code POST} creates.
     *
     * @param ids     the path's ids by parameter name, the new entity's own last: the one the body gave, or a new one
     * @param body    the request's body, its fields checked against those the route takes
     * @param context the writer's clock ({@code now()}) and id source ({@code ids()}), for the entity's times and
     *                incarnation
     */
    @FunctionalInterface
    public interface Create<T> {
        T make(Map<String, String> ids, Body body, RouteContext context);
    }

    /**
     * A declared route ({@code LIST} a {@code GET} of the collection); {@code write} a {@link Put}, a {@link Create}
     * or a {@link Listing}, null for a read or a delete.
     */
    record Declared(String method, Access access, String summary, Fields fields, boolean bodyRequired,
                    Object write, Function<Map<String, String>, List<EntityTable.Requires>> requires) {
    }

    private EntityResource(String path, ItemSchema<T> schema, Function<Map<String, String>, Key> key) {
        this.path = Objects.requireNonNull(path, "path");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.key = Objects.requireNonNull(key, "key");
        if (Router.parameters(path).isEmpty()) {
            throw new IllegalArgumentException("an entity's path names its ids as parameters: " + path);
        }
    }

    /** The entity {@code schema} reads at {@code path}, keyed by the path's ids. */
    public static <T extends Record> EntityResource<T> at(String path, ItemSchema<T> schema,
                                                          Function<Map<String, String>, Key> key) {
        return new EntityResource<>(path, schema, key);
    }

    /**
     * The entity {@code schema} reads at {@code path}, keyed by its pattern ({@code ItemSchema.keyed}) filled with the
     * path's ids of the placeholders' names.
     *
     * @throws IllegalArgumentException for a schema without a pattern, or a placeholder the path has no id for
     */
    public static <T extends Record> EntityResource<T> at(String path, ItemSchema<T> schema) {
        io.tally.core.KeyTemplate template = schema.keyTemplate().orElseThrow(() -> new IllegalArgumentException(
                schema.type().getSimpleName() + " is not keyed by a pattern: give the resource at " + path
                        + " its key function"));
        List<String> parameters = Router.parameters(path);
        for (String name : template.names()) {
            if (!parameters.contains(name)) {
                throw new IllegalArgumentException("the key '" + template.pattern() + "' of " + schema.type()
                        .getSimpleName() + " needs " + name + ", which the path " + path + " does not name");
            }
        }
        return new EntityResource<>(path, schema, ids -> template.key(ids::get));
    }

    /**
     * A write's requirement that the entity of {@code type} whose id is the path's {@code parameter} exists (the 404
     * names it by its type, {@code CatalogueItem} as "catalogue item").
     */
    public static Function<Map<String, String>, EntityTable.Requires> exists(String parameter, EntityType type) {
        String description = ResourceNouns.words(type.attributeValue());
        return ids -> new EntityTable.Requires(type, ids.get(parameter), description);
    }

    /**
     * What the messages call the entity ("organisation 'o1' does not exist", "... already exists", "... is at version
     * 2, not 1"); by default the path's noun before its id ({@link ResourceNouns#entity}).
     */
    public EntityResource<T> named(String entityNoun) {
        this.noun = Objects.requireNonNull(entityNoun, "entityNoun");
        return this;
    }

    /**
     * The message of the 404 for an entity that is not there, from the path's ids; by default from the path's nouns
     * ("user 'u1' has no review 'i1'", {@link ResourceNouns#missing}).
     */
    public EntityResource<T> missing(Function<Map<String, String>, String> message) {
        this.missing = Objects.requireNonNull(message, "message");
        return this;
    }

    /** {@code GET}: the entity, read strongly consistent; 404 when there is none. */
    public EntityResource<T> get(Access access, String summary) {
        return add(new Declared("GET", access, summary, null, false, null, null));
    }

    /** {@code DELETE}: the entity removed, and answered; 404 when there was none. */
    public EntityResource<T> delete(Access access, String summary) {
        return add(new Declared("DELETE", access, summary, null, false, null, null));
    }

    /**
     * {@code PUT} with a body of {@code fields} (required): the entity {@code next} makes, written if every entity
     * {@code requires} names exists (the first missing one is a 404 naming it).
     */
    public EntityResource<T> put(Access access, String summary, Fields fields, Put<T> next,
                                 Function<Map<String, String>, List<EntityTable.Requires>> requires) {
        return add(new Declared("PUT", access, summary, Objects.requireNonNull(fields, "fields"), true, next, requires));
    }

    /** {@link #put}, its requirements those {@link #exists} makes of the path's ids, checked in this order. */
    @SafeVarargs
    public final EntityResource<T> put(Access access, String summary, Fields fields, Put<T> next,
                                       Function<Map<String, String>, EntityTable.Requires>... requires) {
        return put(access, summary, fields, next, all(requires));
    }

    /** {@link #putOptionalBody}, its requirements those {@link #exists} makes of the path's ids. */
    @SafeVarargs
    public final EntityResource<T> putOptionalBody(Access access, String summary, Fields fields, Put<T> next,
                                                   Function<Map<String, String>, EntityTable.Requires>... requires) {
        return putOptionalBody(access, summary, fields, next, all(requires));
    }

    /** As {@link #put}, the body optional: a request without one is a body with none of the fields. */
    public EntityResource<T> putOptionalBody(Access access, String summary, Fields fields, Put<T> next,
                                             Function<Map<String, String>, List<EntityTable.Requires>> requires) {
        return add(new Declared("PUT", access, summary, Objects.requireNonNull(fields, "fields"), false, next,
                requires));
    }

    /**
     * {@code PUT} with a body of {@code fields} (required) that replaces the entity whole, whatever it was: the entity
     * {@code make} makes of the path's ids and the body, written by one put that reads nothing first (201 when there
     * was none, else 200). For an entity whose next state does not depend on the current one and that requires no
     * other; {@link #put} otherwise.
     */
    public EntityResource<T> replace(Access access, String summary, Fields fields, Create<T> make) {
        return add(new Declared("PUT", access, summary, Objects.requireNonNull(fields, "fields"), true,
                Objects.requireNonNull(make, "make"), ids -> List.of()));
    }

    /**
     * {@code POST} to the collection (the path without its last id) with a body of {@code fields} (required): the
     * entity {@code make} makes, created if its id is free and every entity {@code requires} names exists (a missing
     * one is a 404 naming it, before a taken id is a 409: what does not exist cannot be in conflict); 201 with its
     * location. The id is the body's field of the last id's name when {@code fields} has one and the body gives it,
     * else a new time-ordered one.
     *
     * @throws IllegalArgumentException when the path does not end with its last id
     */
    @SafeVarargs
    public final EntityResource<T> post(Access access, String summary, Fields fields, Create<T> make,
                                        Function<Map<String, String>, EntityTable.Requires>... requires) {
        if (!path.endsWith("/{" + lastId() + "}")) {
            throw new IllegalArgumentException("POST creates in the collection before the last id, which " + path
                    + " does not end with");
        }
        return add(new Declared("POST", access, summary, Objects.requireNonNull(fields, "fields"), true,
                Objects.requireNonNull(make, "make"), all(requires)));
    }

    /**
     * {@code PATCH} with a body of {@code fields}, each an attribute of the entity of the same name: those the body
     * gives are set (at least one, else a 400 naming them), {@code updatedAt} set to now and {@code version} counted
     * up, on the condition that the entity exists and, under {@code If-Match}, is at its version (412 otherwise).
     *
     * @throws IllegalArgumentException when the entity has no {@code version} component
     */
    public EntityResource<T> patch(Access access, String summary, Fields fields) {
        if (ResourceRoutes.versionOf(schema.type()).isEmpty()) {
            throw new IllegalArgumentException("PATCH " + path + " needs a version: " + schema.type().getSimpleName()
                    + " has no version component");
        }
        return add(new Declared("PATCH", access, summary, Objects.requireNonNull(fields, "fields"), true, null,
                null));
    }

    /**
     * {@code GET} of the collection (the path without its last id): one page of the entities {@code query} finds for
     * the collection's ids, in its order, with the contract's {@code limit} and {@code cursor} (a cursor holds the
     * {@code cursorKey} attributes of the page's last item, and works only for the collection of its ids). Once the
     * cursor is found valid, every entity {@code owners} names must exist (a 404 naming the first missing one), so an
     * empty list is told from an owner that is not there.
     */
    @SafeVarargs
    public final EntityResource<T> list(Access access, String summary, Function<Map<String, String>, Query> query,
                                        Set<String> cursorKey,
                                        Function<Map<String, String>, EntityTable.Requires>... owners) {
        return add(new Declared("LIST", access, summary, null, false, new Listing(Objects.requireNonNull(query,
                "query"), Set.copyOf(cursorKey)), all(owners)));
    }

    /** What a {@link #list} reads. */
    record Listing(Function<Map<String, String>, Query> query, Set<String> cursorKey) {
    }

    private static Function<Map<String, String>, List<EntityTable.Requires>> all(
            Function<Map<String, String>, EntityTable.Requires>[] requires) {
        List<Function<Map<String, String>, EntityTable.Requires>> each = List.of(requires);
        return ids -> each.stream().map(require -> require.apply(ids)).toList();
    }

    private EntityResource<T> add(Declared route) {
        Objects.requireNonNull(route.access(), "access");
        if (routes.stream().anyMatch(declared -> declared.method().equals(route.method()))) {
            throw new IllegalArgumentException(route.method() + " " + path + " is declared twice");
        }
        routes.add(route);
        return this;
    }

    private String lastId() {
        List<String> parameters = Router.parameters(path);
        return parameters.get(parameters.size() - 1);
    }

    /** The path, for the registry's and the writer's checks. */
    public String path() {
        return path;
    }

    /** The schema of the entity it reads and writes. */
    public ItemSchema<T> schema() {
        return schema;
    }

    /** The type of the entity it reads and writes. */
    public io.tally.core.EntityType entityType() {
        return schema.entityType();
    }

    /** The key of the entity at the path's ids (by parameter name). */
    public Key key(Map<String, String> ids) {
        return key.apply(ids);
    }

    /** Made-up ids for the path's parameters, as the registry's key check gives them ({@link RegistryKeys}). */
    Map<String, String> sampleIds() {
        Map<String, String> ids = new LinkedHashMap<>();
        List<String> names = Router.parameters(path);
        for (int i = 0; i < names.size(); i++) {
            ids.put(names.get(i), KeyPatterns.sampleId(names.get(i), i));
        }
        return ids;
    }

    /** Adds the routes to the router, in the order declared. */
    void register(Router router, RouteContext context) {
        String entity = noun != null ? noun : ResourceNouns.entity(path, schema);
        new ResourceRoutes<>(path, schema, key, entity, missing != null ? missing
                : ResourceNouns.missing(path, schema, entity), context).register(router, routes);
    }
}
