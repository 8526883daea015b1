package io.tally.core;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One component of an {@link ItemSchema}'s record: how its value is read off the record, written as its attribute,
 * and read back from an item (by the component's type: text, whole numbers, decimals, booleans, instants, enums by
 * name or {@link ItemSchema.Coded} value).
 *
 * @param optional whether it may be null (left out of the item, read back as null)
 * @param stored   whether the item holds it
 */
record SchemaField(String name, RecordComponent component, Method accessor, boolean optional, boolean stored) {
    /** Its value in a record. */
    Object get(Object record) {
        try {
            return accessor.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + name, e);
        }
    }

    /** The component's value as its attribute (null: left out), or why it cannot be stored. */
    AttributeValue write(Object value) {
        if (value == null) {
            if (!optional) {
                throw new IllegalArgumentException("'" + name + "' must not be null");
            }
            return null;
        }
        try {
            return Items.value(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("'" + name + "': " + e.getMessage(), e);
        }
    }

    /** The component's value in an item, as its type reads it; null for one not stored or optional and absent. */
    Object read(Map<String, AttributeValue> item) {
        if (!stored) {
            return null;
        }
        AttributeValue value = item.get(name);
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            if (optional) {
                return null;
            }
            throw new MalformedItemException("attribute '" + name + "' is missing");
        }
        Class<?> type = component.getType();
        if (type == String.class) {
            return Items.string(item, name);
        }
        if (type == long.class || type == Long.class) {
            return Items.number(item, name);
        }
        if (type == int.class || type == Integer.class) {
            return Math.toIntExact(Items.number(item, name));
        }
        if (type == double.class || type == Double.class) {
            return Items.optionalDecimal(item, name);
        }
        if (type == boolean.class || type == Boolean.class) {
            return Items.optionalBoolean(item, name);
        }
        if (type == Instant.class) {
            return Items.instant(item, name);
        }
        if (type.isEnum()) {
            return constant(type, name, Items.string(item, name));
        }
        throw new IllegalStateException("'" + name + "': no way to read a " + type);
    }

    private static Object constant(Class<?> type, String name, String stored) {
        for (Object constant : type.getEnumConstants()) {
            String value = constant instanceof ItemSchema.Coded coded ? coded.value() : ((Enum<?>) constant).name();
            if (value.equals(stored)) {
                return constant;
            }
        }
        throw new MalformedItemException("attribute '" + name + "' is no " + type.getSimpleName() + ": " + stored);
    }
}
