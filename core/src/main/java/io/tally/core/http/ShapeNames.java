package io.tally.core.http;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The names the OpenAPI document gives the records a route answers with: a record's simple class name, which must
 * therefore name one record only among every route's shapes and the records their components hold.
 */
public final class ShapeNames {
    private ShapeNames() {
    }

    /**
     * Refuses two shapes of one simple class name among these shapes and the records their components hold (lists and
     * maps of them included): a walk of the classes alone, cheap enough for a function's start.
     *
     * @throws IllegalStateException naming both classes
     */
    public static void check(Collection<Class<?>> shapes) {
        Map<String, Class<?>> named = new TreeMap<>();
        Deque<Type> pending = new ArrayDeque<>(shapes);
        while (!pending.isEmpty()) {
            Type type = pending.pop();
            if (type instanceof ParameterizedType generic) {
                pending.addAll(List.of(generic.getActualTypeArguments()));
            } else if (type instanceof Class<?> shape && shape.isRecord()) {
                Class<?> earlier = named.putIfAbsent(shape.getSimpleName(), shape);
                if (earlier == null) {
                    Arrays.stream(shape.getRecordComponents()).map(RecordComponent::getGenericType)
                            .forEach(pending::add);
                } else if (!earlier.equals(shape)) {
                    throw clash(earlier, shape);
                }
            }
        }
    }

    /** The shapes the routes answer with (their records), in the router's order. */
    public static List<Class<?>> of(Router router) {
        return router.descriptions().stream().map(Router.Description::returns)
                .filter(java.util.Objects::nonNull).<Class<?>>map(shape -> shape).toList();
    }

    /** Why two shapes of one simple name cannot both be described. */
    public static IllegalStateException clash(Class<?> earlier, Class<?> shape) {
        return new IllegalStateException("two shapes of the API are named " + shape.getSimpleName() + ": "
                + earlier.getName() + " and " + shape.getName() + "; the OpenAPI document names a schema by its simple"
                + " class name, so rename one");
    }
}
