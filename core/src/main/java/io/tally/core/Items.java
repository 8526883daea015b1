package io.tally.core;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Typed reads of item attributes that fail with {@link MalformedItemException} instead of a null pointer. */
public final class Items {
    private Items() {
    }

    public static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || value.s() == null) {
            throw new MalformedItemException("attribute '" + name + "' is missing or not a string");
        }
        return value.s();
    }

    public static String optionalString(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            return null;
        }
        if (value.s() == null) {
            throw new MalformedItemException("attribute '" + name + "' is not a string");
        }
        return value.s();
    }

    public static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || value.n() == null) {
            throw new MalformedItemException("attribute '" + name + "' is missing or not a number");
        }
        try {
            return Long.parseLong(value.n());
        } catch (NumberFormatException e) {
            throw new MalformedItemException("attribute '" + name + "' is not an integer: " + value.n());
        }
    }

    public static Double optionalDecimal(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            return null;
        }
        if (value.n() == null) {
            throw new MalformedItemException("attribute '" + name + "' is not a number");
        }
        try {
            return Double.valueOf(value.n());
        } catch (NumberFormatException e) {
            throw new MalformedItemException("attribute '" + name + "' is not a number: " + value.n());
        }
    }

    public static Boolean optionalBoolean(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || Boolean.TRUE.equals(value.nul())) {
            return null;
        }
        if (value.bool() == null) {
            throw new MalformedItemException("attribute '" + name + "' is not a boolean");
        }
        return value.bool();
    }

    public static Instant instant(Map<String, AttributeValue> item, String name) {
        return Timestamps.parse(string(item, name));
    }

    /** The entity type attribute of an item, or null when it has none. */
    public static String entityTypeName(Map<String, AttributeValue> item) {
        AttributeValue value = item == null ? null : item.get(TableSchema.ENTITY_TYPE);
        return value == null ? null : value.s();
    }

    /** Checks the entity type attribute, so that a mapper never reads an item of another kind. */
    public static void expectType(Map<String, AttributeValue> item, EntityType... expected) {
        for (EntityType type : expected) {
            if (type.isTypeOf(item)) {
                return;
            }
        }
        String actual = entityTypeName(item);
        throw new MalformedItemException(actual == null ? "the item has no entity type"
                : "expected entity type " + Arrays.stream(expected).map(EntityType::attributeValue)
                        .collect(Collectors.joining(" or ")) + " but found " + actual);
    }

    public static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    public static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    public static AttributeValue ts(Instant value) {
        return AttributeValue.fromS(Timestamps.format(value));
    }

    public static AttributeValue type(EntityType type) {
        return AttributeValue.fromS(type.attributeValue());
    }

    /**
     * A value as {@link ItemSchema} stores it: {@code String} as S; {@code Long} and {@code Integer} as N;
     * {@code Double} as N in plain notation; {@code Boolean} as BOOL; {@link Instant} as S in the contract's format; an
     * enum as S, its {@link ItemSchema.Coded#value()} when it has one, else its name; an {@link AttributeValue} as it
     * is. Conditions and updates ({@code io.tally.core.store}) compare and set attributes by it.
     *
     * @throws IllegalArgumentException for null or a type it does not store
     */
    public static AttributeValue value(Object value) {
        if (value instanceof AttributeValue attribute) {
            return attribute;
        }
        if (value instanceof String text) {
            return AttributeValue.fromS(text);
        }
        if (value instanceof Long || value instanceof Integer) {
            return AttributeValue.fromN(value.toString());
        }
        if (value instanceof Double decimal) {
            // Plain notation: Double.toString would write 1.0E-5.
            return AttributeValue.fromN(BigDecimal.valueOf(decimal).toPlainString());
        }
        if (value instanceof Boolean bool) {
            return AttributeValue.fromBool(bool);
        }
        if (value instanceof Instant instant) {
            return AttributeValue.fromS(Timestamps.format(instant));
        }
        if (value instanceof ItemSchema.Coded coded) {
            return AttributeValue.fromS(coded.value());
        }
        if (value instanceof Enum<?> constant) {
            return AttributeValue.fromS(constant.name());
        }
        throw new IllegalArgumentException(value == null ? "no value" : "no way to store a " + value.getClass());
    }
}
