package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The repair of one derived item: its whole content as recomputed at a stream position, the bookkeeping that says
 * which records it reflects, and the guards that refuse the write if the item has meanwhile moved past the position.
 *
 * @param values      content attributes set (the non-zero counters and the document values)
 * @param removals    content attributes removed (zero counters, fields the document does not hold, leftovers)
 * @param bookkeeping reserved attributes set, today the watermarks ({@code wm_<token>} = the position in that shard);
 *                    another bookkeeping attribute joins here
 * @param atMost      guards: the attribute is absent or at most this (zero-padded) value
 * @param absent      guards: the attribute is absent
 */
record RepairWrite(Key key, EntityType type, Map<String, AttributeValue> values, Set<String> removals,
                   Map<String, AttributeValue> bookkeeping, Map<String, String> atMost, Set<String> absent) {
    RepairWrite {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(type, "type");
        values = Map.copyOf(values);
        removals = Set.copyOf(removals);
        bookkeeping = Map.copyOf(bookkeeping);
        atMost = Map.copyOf(atMost);
        absent = Set.copyOf(absent);
        for (String name : values.keySet()) {
            if (DerivedType.isReserved(name) || removals.contains(name)) {
                throw new IllegalArgumentException("content attribute reserved, or both set and removed: " + name);
            }
        }
        for (String name : removals) {
            if (DerivedType.isReserved(name)) {
                throw new IllegalArgumentException("reserved attribute removed as content: " + name);
            }
        }
        for (String name : bookkeeping.keySet()) {
            if (!DerivedType.isReserved(name) || name.equals(TableSchema.PK) || name.equals(TableSchema.SK)
                    || name.equals(TableSchema.ENTITY_TYPE)) {
                throw new IllegalArgumentException("not a bookkeeping attribute: " + name);
            }
        }
    }

    /** One UpdateItem: SET the type, the values and the bookkeeping, REMOVE the rest, on the guards. */
    UpdateItemRequest toUpdateItem(String table) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, AttributeValue> expressionValues = new HashMap<>();
        List<String> sets = new ArrayList<>();
        sets.add(name(TableSchema.ENTITY_TYPE, names) + " = :t");
        expressionValues.put(":t", AttributeValue.fromS(type.attributeValue()));
        int i = 0;
        Map<String, AttributeValue> all = new TreeMap<>(values);
        all.putAll(new TreeMap<>(bookkeeping));
        for (Map.Entry<String, AttributeValue> value : all.entrySet()) {
            sets.add(name(value.getKey(), names) + " = :v" + i);
            expressionValues.put(":v" + i++, value.getValue());
        }
        List<String> removes = new ArrayList<>();
        new TreeSet<>(removals).forEach(name -> removes.add(name(name, names)));
        List<String> guards = new ArrayList<>();
        i = 0;
        for (Map.Entry<String, String> guard : new TreeMap<>(atMost).entrySet()) {
            String name = name(guard.getKey(), names);
            guards.add("(attribute_not_exists(" + name + ") OR " + name + " <= :g" + i + ")");
            expressionValues.put(":g" + i++, AttributeValue.fromS(guard.getValue()));
        }
        new TreeSet<>(absent).forEach(name -> guards.add("attribute_not_exists(" + name(name, names) + ")"));

        String update = "SET " + String.join(", ", sets)
                + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
        UpdateItemRequest.Builder request = UpdateItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .updateExpression(update)
                .expressionAttributeNames(invert(names))
                .expressionAttributeValues(expressionValues);
        if (!guards.isEmpty()) {
            request.conditionExpression(String.join(" AND ", guards));
        }
        return request.build();
    }

    /** The same write as one action of a transaction. */
    Update toUpdate(String table) {
        UpdateItemRequest request = toUpdateItem(table);
        return Update.builder().tableName(table).key(request.key()).updateExpression(request.updateExpression())
                .conditionExpression(request.conditionExpression())
                .expressionAttributeNames(request.expressionAttributeNames())
                .expressionAttributeValues(request.expressionAttributeValues()).build();
    }

    /** The placeholder of an attribute name (every name goes through one: many are reserved words). */
    private static String name(String attribute, Map<String, String> names) {
        return names.computeIfAbsent(attribute, a -> "#a" + names.size());
    }

    private static Map<String, String> invert(Map<String, String> names) {
        Map<String, String> placeholders = new HashMap<>();
        names.forEach((attribute, placeholder) -> placeholders.put(placeholder, attribute));
        return placeholders;
    }
}
