package io.tally.core;

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
}
