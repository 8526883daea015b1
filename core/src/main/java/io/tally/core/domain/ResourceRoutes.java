package io.tally.core.domain;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Router;
import io.tally.core.store.Update;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The routes an {@link EntityResource} declares, as the router runs them: each request's ids read from its path, the
 * body checked, the entity read or written through an {@link EntityTable}, and the answer with its status, location and
 * {@code ETag}.
 *
 * @param <T> the entity
 */
final class ResourceRoutes<T extends Record> {
    private final String path;
    private final ItemSchema<T> schema;
    private final Function<Map<String, String>, Key> key;
    private final String noun;
    private final Function<Map<String, String>, String> missing;
    private final RouteContext context;
    private final EntityTable<T> table;
    private final Optional<Method> version;
    /** The path's parameters, its last the entity's own id, and the collection's path (without that id). */
    private final List<String> parameters;
    private final String collection;

    ResourceRoutes(String path, ItemSchema<T> schema, Function<Map<String, String>, Key> key, String noun,
                   Function<Map<String, String>, String> missing, RouteContext context) {
        this.path = path;
        this.schema = schema;
        this.key = key;
        this.noun = noun;
        this.missing = missing;
        this.context = context;
        this.table = EntityTable.of(context, schema);
        this.version = versionOf(schema.type());
        this.parameters = Router.parameters(path);
        this.collection = path.substring(0, path.lastIndexOf('/'));
    }

    /**
     * The accessor of the record's {@code version} component, a whole number, if it has one: its {@code ETag}. Made
     * accessible, as {@code ItemSchema} makes the components' accessors, so that a record its package keeps to itself
     * answers too.
     */
    static Optional<Method> versionOf(Class<?> type) {
        Optional<Method> accessor = Arrays.stream(type.getRecordComponents()).filter(component -> component.getName()
                .equals(Update.VERSION) && (component.getType() == long.class || component.getType() == Long.class))
                .map(RecordComponent::getAccessor).findFirst();
        accessor.ifPresent(method -> method.setAccessible(true));
        return accessor;
    }

    void register(Router router, List<EntityResource.Declared> routes) {
        for (EntityResource.Declared route : routes) {
            boolean post = route.method().equals("POST");
            boolean list = route.method().equals("LIST");
            String at = post || list ? collection : path;
            Router.Route added = router.add(list ? "GET" : route.method(), at, route.access(),
                    request -> handle(route, request)).summary(route.summary());
            if (list) {
                added.page(schema.type());
                continue;
            }
            if (route.fields() != null) {
                if (route.bodyRequired()) {
                    added.body(route.fields());
                } else {
                    added.optionalBody(route.fields());
                }
            }
            added.returns(route.method().equals("PUT") || post ? 201 : 200, schema.type());
        }
    }

    @SuppressWarnings("unchecked")
    private ApiResponse handle(EntityResource.Declared route, ApiRequest request) {
        Map<String, String> ids = new LinkedHashMap<>();
        parameters.stream().filter(request.pathParameters()::containsKey)
                .forEach(name -> ids.put(name, request.id(name)));
        switch (route.method()) {
            case "GET" -> {
                return ok(table.get(key.apply(ids)).orElseThrow(() -> notFound(ids)));
            }
            case "DELETE" -> {
                return ok(table.delete(key.apply(ids)).orElseThrow(() -> notFound(ids)));
            }
            case "POST" -> {
                return create(route, (EntityResource.Create<T>) route.write(), ids, request);
            }
            case "PATCH" -> {
                return patch(route.fields(), ids, request);
            }
            case "LIST" -> {
                return list((EntityResource.Listing) route.write(), route.requires().apply(Map.copyOf(ids)), ids,
                        request);
            }
            default -> {
                if (route.write() instanceof EntityResource.Create<?> make) {
                    return replace(route.fields(), (EntityResource.Create<T>) make, Map.copyOf(ids), request);
                }
                return put(route, (EntityResource.Put<T>) route.write(), Map.copyOf(ids), request);
            }
        }
    }

    private ApiResponse put(EntityResource.Declared route, EntityResource.Put<T> next, Map<String, String> ids,
                            ApiRequest request) {
        Body body = route.bodyRequired() ? Body.parse(request.body(), route.fields())
                : Body.parseOptional(request.body(), route.fields());
        // Once before any read, with no current state: the body's checks answer 400 before the table is read.
        // Only a 400 counts there; anything else (a function that needs the current state) is the real call's.
        try {
            next.next(ids, body, Optional.empty(), context.now());
        } catch (ApiException e) {
            if (e.code().status() == 400) {
                throw e;
            }
        } catch (RuntimeException e) {
            // The real call, with the current state, answers for it.
        }
        EntityTable.Written<T> written = table.put(key.apply(ids), current -> next.next(ids, body, current,
                context.now()), route.requires().apply(ids).toArray(EntityTable.Requires[]::new));
        return written.created() ? created(written.after(), ids) : ok(written.after());
    }

    private ApiResponse replace(Fields fields, EntityResource.Create<T> make, Map<String, String> ids,
                                ApiRequest request) {
        T entity = keyed(make.make(ids, Body.parse(request.body(), fields), context), ids);
        return table.replace(entity) ? ok(entity) : created(entity, ids);
    }

    /** The entity made for the ids, checked to be keyed by them. */
    private T keyed(T entity, Map<String, String> ids) {
        if (!schema.key(entity).equals(key.apply(ids))) {
            throw new IllegalStateException("the entity made for " + ids + " is keyed " + schema.key(entity));
        }
        return entity;
    }

    private ApiResponse create(EntityResource.Declared route, EntityResource.Create<T> make, Map<String, String> ids,
                               ApiRequest request) {
        Body body = Body.parse(request.body(), route.fields());
        String id = parameters.get(parameters.size() - 1);
        ids.put(id, context.idOrNew(route.fields().names().contains(id) ? body.optionalId(id) : null));
        Map<String, String> given = Map.copyOf(ids);
        T entity = keyed(make.make(given, body, context), given);
        table.create(entity, () -> ApiException.conflict(noun + " '" + ids.get(id) + "' already exists"),
                route.requires().apply(given).toArray(EntityTable.Requires[]::new));
        return created(entity, given);
    }

    private ApiResponse patch(Fields fields, Map<String, String> ids, ApiRequest request) {
        IfMatch ifMatch = request.ifMatch();
        Body body = Body.parse(request.body(), fields);
        Update change = Update.versioned(context.now());
        boolean any = false;
        for (Field<?> field : fields.list()) {
            Object value = body.get(field);
            change = change.set(field.name(), value);
            any |= value != null;
        }
        if (!any) {
            throw ApiException.validation(null, "nothing to change: give " + alternatives(fields));
        }
        String id = ids.get(parameters.get(parameters.size() - 1));
        return ok(table.update(key.apply(ids), change, ifMatch.version(), () -> notFound(ids),
                current -> ApiException.preconditionFailed(noun + " '" + id + "' is at version "
                        + versionOf(current) + ", not " + ifMatch.version())));
    }

    /**
     * One page of the collection; its cursors are scoped to the collection's noun and ids ({@code teams:<orgId>}), as
     * the lists written by hand scope theirs.
     */
    private ApiResponse list(EntityResource.Listing listing, List<EntityTable.Requires> owners,
                             Map<String, String> ids, ApiRequest request) {
        String scope = collection.substring(collection.lastIndexOf('/') + 1) + ":" + String.join(":", ids.values());
        return context.page(request, scope, listing.cursorKey(), (limit, start) -> {
            owners.forEach(owner -> context.requireExists(owner.type(), owner.id(), owner.description()));
            return table.page(listing.query().apply(Map.copyOf(ids)), limit, start, listing.cursorKey());
        }, schema::fromItem);
    }

    /** The fields' names as alternatives: "name or type", "title, body or tags". */
    private static String alternatives(Fields fields) {
        List<String> names = fields.list().stream().map(Field::name).toList();
        if (names.size() == 1) {
            return names.get(0);
        }
        return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", ")) + " or "
                + names.get(names.size() - 1);
    }

    private ApiException notFound(Map<String, String> ids) {
        return ApiException.notFound(missing.apply(ids));
    }

    private ApiResponse ok(T entity) {
        return tagged(ApiResponse.ok(entity), entity);
    }

    private ApiResponse created(T entity, Map<String, String> ids) {
        String location = path;
        for (Map.Entry<String, String> id : ids.entrySet()) {
            location = location.replace("{" + id.getKey() + "}", id.getValue());
        }
        return tagged(ApiResponse.created(entity, location), entity);
    }

    private ApiResponse tagged(ApiResponse response, T entity) {
        Long current = versionOf(entity);
        return current == null ? response : response.withETag(current);
    }

    /** The entity's version, or null when it has none. */
    private Long versionOf(T entity) {
        if (version.isEmpty()) {
            return null;
        }
        try {
            Object value = version.get().invoke(entity);
            return value == null ? null : ((Number) value).longValue();
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("the version of " + entity.getClass().getSimpleName(), e);
        }
    }
}
