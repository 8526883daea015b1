package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * An entity at a path, its routes declared as data ({@code Declaration.resource}): {@code GET} answers it,
 * {@code DELETE} removes it and answers what it removed, and {@code PUT} creates or replaces it (201 with its location,
 * or 200), through an {@link EntityTable}: the put in one transaction with the checks that the entities it refers to
 * exist, on the condition that the item is still as read. The path's parameters are the entity's ids (each checked as
 * an id, 400 otherwise), and a missing entity is 404 with the message the resource gives. The routes are added, in the
 * order declared, before the domain's own ({@link Domain#routes}), with their access rules, summaries and the OpenAPI
 * description of the entity.
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

    private record Declared(String method, Access access, String summary, Fields fields, boolean bodyRequired,
                            Put<?> put, Function<Map<String, String>, List<EntityTable.Requires>> requires) {
    }

    private EntityResource(String path, ItemSchema<T> schema, Function<Map<String, String>, Key> key) {
        this.path = Objects.requireNonNull(path, "path");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.key = Objects.requireNonNull(key, "key");
        if (Router.parameters(path).isEmpty()) {
            throw new IllegalArgumentException("an entity's path names its ids as parameters: " + path);
        }
        this.missing = missingByDefault(path, schema);
    }

    /**
     * The 404's message by default, from the path's nouns: {@code /users/{userId}/reviews/{itemId}} gives "user 'u1'
     * has no review 'i1'" (the owner named by its parameter, the entity by the plural before its id), {@code
     * /items/{itemId}} "item 'i1' does not exist"; another path, "<entity type in lower case> '<ids joined with />'
     * does not exist".
     */
    private static Function<Map<String, String>, String> missingByDefault(String path, ItemSchema<?> schema) {
        List<String> segments = java.util.Arrays.stream(path.split("/")).filter(segment -> !segment.isEmpty())
                .toList();
        List<String> parameters = Router.parameters(path);
        boolean nounThenId = segments.size() == 2 * parameters.size() && java.util.stream.IntStream
                .range(0, segments.size()).allMatch(i -> segments.get(i).startsWith("{") == (i % 2 == 1));
        if (nounThenId && parameters.size() == 1) {
            String noun = noun(parameters.get(0), segments.get(0));
            return ids -> noun + " '" + ids.get(parameters.get(0)) + "' does not exist";
        }
        if (nounThenId && parameters.size() == 2) {
            String owner = noun(parameters.get(0), segments.get(0));
            String owned = singular(segments.get(2));
            return ids -> owner + " '" + ids.get(parameters.get(0)) + "' has no " + owned + " '"
                    + ids.get(parameters.get(1)) + "'";
        }
        return ids -> schema.entityType().attributeValue().toLowerCase(java.util.Locale.ROOT) + " '"
                + String.join("/", ids.values()) + "' does not exist";
    }

    /**
     * What an id names, from its parameter ({@code shelfId} shelf, {@code catalogueItemId} catalogue item), else from
     * the path's plural noun before it.
     */
    private static String noun(String parameter, String plural) {
        return parameter.length() > 2 && parameter.endsWith("Id") ? words(parameter.substring(0,
                parameter.length() - 2)) : singular(plural);
    }

    /** A name in camel case as lower-case words: {@code CatalogueItem} "catalogue item". */
    private static String words(String camel) {
        return camel.replaceAll("(?<=[a-z0-9])(?=[A-Z])", " ").toLowerCase(java.util.Locale.ROOT);
    }

    /** A path's plural noun as one, the regular way: {@code users} user, {@code categories} category. */
    private static String singular(String noun) {
        if (noun.endsWith("ies")) {
            return noun.substring(0, noun.length() - 3) + "y";
        }
        return noun.endsWith("s") && !noun.endsWith("ss") ? noun.substring(0, noun.length() - 1) : noun;
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
     * A {@code PUT}'s requirement that the entity of {@code type} whose id is the path's {@code parameter} exists (the
     * 404 names it by its type, {@code CatalogueItem} as "catalogue item").
     */
    public static Function<Map<String, String>, EntityTable.Requires> exists(String parameter, EntityType type) {
        String description = words(type.attributeValue());
        return ids -> new EntityTable.Requires(type, ids.get(parameter), description);
    }

    /**
     * The message of the 404 for an entity that is not there, from the path's ids; by default from the path's nouns
     * ("user 'u1' has no review 'i1'", {@link #missingByDefault}).
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

    private static Function<Map<String, String>, List<EntityTable.Requires>> all(
            Function<Map<String, String>, EntityTable.Requires>[] requires) {
        List<Function<Map<String, String>, EntityTable.Requires>> each = List.of(requires);
        return ids -> each.stream().map(require -> require.apply(ids)).toList();
    }

    /** As {@link #put}, the body optional: a request without one is a body with none of the fields. */
    public EntityResource<T> putOptionalBody(Access access, String summary, Fields fields, Put<T> next,
                                             Function<Map<String, String>, List<EntityTable.Requires>> requires) {
        return add(new Declared("PUT", access, summary, Objects.requireNonNull(fields, "fields"), false, next,
                requires));
    }

    private EntityResource<T> add(Declared route) {
        Objects.requireNonNull(route.access(), "access");
        if (routes.stream().anyMatch(declared -> declared.method().equals(route.method()))) {
            throw new IllegalArgumentException(route.method() + " " + path + " is declared twice");
        }
        routes.add(route);
        return this;
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
        EntityTable<T> table = EntityTable.of(context, schema);
        for (Declared route : routes) {
            Router.Route added = router.add(route.method(), path, route.access(), request -> handle(route, table,
                    context, request)).summary(route.summary());
            if (route.put() != null) {
                if (route.bodyRequired()) {
                    added.body(route.fields());
                } else {
                    added.optionalBody(route.fields());
                }
            }
            added.returns(route.put() != null ? 201 : 200, schema.type());
        }
    }

    /** The entity's path with its ids in place: a created entity's location. */
    private String location(Map<String, String> ids) {
        String location = path;
        for (Map.Entry<String, String> id : ids.entrySet()) {
            location = location.replace("{" + id.getKey() + "}", id.getValue());
        }
        return location;
    }

    @SuppressWarnings("unchecked")
    private ApiResponse handle(Declared route, EntityTable<T> table, RouteContext context, ApiRequest request) {
        Map<String, String> ids = new LinkedHashMap<>();
        Router.parameters(path).forEach(name -> ids.put(name, request.id(name)));
        Map<String, String> given = Map.copyOf(ids);
        Key at = key.apply(given);
        switch (route.method()) {
            case "GET" -> {
                return ApiResponse.ok(table.get(at).orElseThrow(() -> ApiException.notFound(missing.apply(ids))));
            }
            case "DELETE" -> {
                return ApiResponse.ok(table.delete(at).orElseThrow(() -> ApiException.notFound(missing.apply(ids))));
            }
            default -> {
                Body body = route.bodyRequired() ? Body.parse(request.body(), route.fields())
                        : Body.parseOptional(request.body(), route.fields());
                Put<T> next = (Put<T>) route.put();
                // Once before any read, with no current state: the body's checks answer 400 before the table is read.
                // Only a 400 counts there; anything else (a function that needs the current state) is the real call's.
                try {
                    next.next(given, body, Optional.empty(), context.now());
                } catch (ApiException e) {
                    if (e.code().status() == 400) {
                        throw e;
                    }
                } catch (RuntimeException e) {
                    // The real call, with the current state, answers for it.
                }
                EntityTable.Written<T> written = table.put(at, current -> next.next(given, body, current,
                        context.now()), route.requires().apply(given).toArray(EntityTable.Requires[]::new));
                return written.created() ? ApiResponse.created(written.after(), location(given))
                        : ApiResponse.ok(written.after());
            }
        }
    }
}
