package io.tally.writer.openapi;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.ItemSchema;
import io.tally.core.http.Json;
import io.tally.core.http.ShapeNames;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON schemas of the contract's shapes, read from the records that render them (as Jackson writes them): a component
 * is a property unless {@code @JsonIgnore}d, named as {@code @JsonProperty} says, in {@code @JsonPropertyOrder}'s order.
 */
final class Schemas {
    private final Map<String, ObjectNode> definitions = new TreeMap<>();
    private final Map<String, Class<?>> shapes = new TreeMap<>();

    /**
     * A reference to the shape's schema, defined once under {@code components/schemas}, named by its simple class name.
     *
     * @throws IllegalStateException when another shape has that name (two domains' {@code Stats} records, say): one
     *                               schema would describe both
     */
    ObjectNode reference(Class<?> shape) {
        if (!shape.isRecord()) {
            return Json.object().put("type", "object");
        }
        String name = shape.getSimpleName();
        Class<?> named = shapes.putIfAbsent(name, shape);
        if (named != null && !named.equals(shape)) {
            throw ShapeNames.clash(named, shape);
        }
        if (!definitions.containsKey(name)) {
            definitions.put(name, Json.object());
            definitions.put(name, record(shape));
        }
        return Json.object().put("$ref", "#/components/schemas/" + name);
    }

    /** The contract's page of items of the shape: {@code {"items": [...], "cursor": "..." | null}}. */
    ObjectNode page(Class<?> itemShape) {
        ObjectNode page = Json.object().put("type", "object");
        page.putArray("required").add("items").add("cursor");
        ObjectNode properties = page.putObject("properties");
        properties.putObject("items").put("type", "array").set("items", reference(itemShape));
        properties.putObject("cursor").put("type", "string").put("nullable", true);
        return page;
    }

    ObjectNode definitions() {
        ObjectNode all = Json.object();
        definitions.forEach(all::set);
        return all;
    }

    private ObjectNode record(Class<?> shape) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (RecordComponent component : ordered(shape)) {
            properties.set(name(component), type(component.getGenericType()));
        }
        return schema;
    }

    /** The components Jackson writes, in its order: {@code @JsonPropertyOrder}'s first, then the rest as declared. */
    private static List<RecordComponent> ordered(Class<?> shape) {
        List<RecordComponent> components = new ArrayList<>(Arrays.stream(shape.getRecordComponents())
                .filter(component -> !component.isAnnotationPresent(JsonIgnore.class)
                        && !(component.getAccessor().isAnnotationPresent(JsonIgnore.class)))
                .toList());
        JsonPropertyOrder order = shape.getAnnotation(JsonPropertyOrder.class);
        if (order != null) {
            List<String> names = List.of(order.value());
            components.sort((a, b) -> Integer.compare(position(names, name(a)), position(names, name(b))));
        }
        return components;
    }

    private static int position(List<String> names, String name) {
        int index = names.indexOf(name);
        return index < 0 ? Integer.MAX_VALUE : index;
    }

    /** As Jackson names it: {@code @JsonProperty} on the component or (where Jackson also looks) on its accessor. */
    private static String name(RecordComponent component) {
        JsonProperty property = component.getAnnotation(JsonProperty.class);
        if (property == null) {
            property = component.getAccessor().getAnnotation(JsonProperty.class);
        }
        return property != null && !property.value().isEmpty() ? property.value() : component.getName();
    }

    private ObjectNode type(Type type) {
        if (type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> raw) {
            Type[] arguments = generic.getActualTypeArguments();
            if (Collection.class.isAssignableFrom(raw)) {
                ObjectNode array = Json.object().put("type", "array");
                array.set("items", type(arguments[0]));
                return array;
            }
            if (Map.class.isAssignableFrom(raw)) {
                ObjectNode map = Json.object().put("type", "object");
                map.set("additionalProperties", type(arguments[1]));
                return map;
            }
        }
        if (!(type instanceof Class<?> shape)) {
            return Json.object();
        }
        if (shape == String.class) {
            return Json.object().put("type", "string");
        }
        if (shape == Instant.class) {
            return Json.object().put("type", "string").put("format", "date-time");
        }
        if (shape == long.class || shape == Long.class || shape == int.class || shape == Integer.class) {
            return Json.object().put("type", "integer");
        }
        if (shape == double.class || shape == Double.class || shape == BigDecimal.class) {
            return Json.object().put("type", "number");
        }
        if (shape == boolean.class || shape == Boolean.class) {
            return Json.object().put("type", "boolean");
        }
        if (shape.isEnum()) {
            ObjectNode schema = Json.object().put("type", "string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : shape.getEnumConstants()) {
                values.add(constant instanceof ItemSchema.Coded coded ? coded.value() : ((Enum<?>) constant).name());
            }
            return schema;
        }
        return reference(shape);
    }
}
