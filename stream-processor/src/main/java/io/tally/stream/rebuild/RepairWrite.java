package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The repair of one derived item: its whole content as recomputed at a stream position, the bookkeeping that says
 * which records it reflects, and the guards that refuse the write if the item has meanwhile moved past the position.
 * The item is read, checked against the guards ({@link #admits}) and replaced whole ({@link #toPut}) on the condition
 * that no write has landed since the read.
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

    /**
     * Whether the item as read now ({@code current}, empty when there is none) may be replaced: every guard holds, that
     * is, no stream processor has moved it past the position in an open shard or written it from a shard the position
     * does not know. Checked on a read, not in the write's condition: a condition per shard would pass DynamoDB's
     * expression limits (4 KB, 300 operators) at about 80 open shards; the write's one condition, on the item's write
     * version, then makes sure it has not changed since the read.
     */
    boolean admits(Map<String, AttributeValue> current) {
        for (Map.Entry<String, String> guard : atMost.entrySet()) {
            AttributeValue value = current.get(guard.getKey());
            if (value != null && (value.s() == null || value.s().compareTo(guard.getValue()) > 0)) {
                return false;
            }
        }
        return absent.stream().noneMatch(current::containsKey);
    }

    /**
     * The item that replaces {@code current}: its attributes without the removals, with the content values and the
     * bookkeeping set, the key and the type, and the write version one past the current one. An item made anew (none
     * was there) gets a write version from the clock, not 1: a partial the pruner read at version 1, folded and
     * deleted by another pass, and made again here must not pass the first pass's fold condition and be folded twice.
     * Watermarks of shards the repair does not set stay as they were. A whole item, not an expression: it is within DynamoDB's limits whatever
     * the number of shards or attributes, up to the 400 KB of an item.
     */
    Map<String, AttributeValue> replacing(Map<String, AttributeValue> current) {
        Map<String, AttributeValue> item = new HashMap<>(current);
        removals.forEach(item::remove);
        item.putAll(values);
        item.putAll(bookkeeping);
        item.putAll(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(type.attributeValue()));
        item.put(TableSchema.WRITE_VERSION, AttributeValue.fromN(Long.toString(current.isEmpty()
                ? System.currentTimeMillis() : version(current) + 1)));
        return item;
    }

    /** The replacement as a Put on the condition that the item's write version is still that of {@code current}. */
    Put toPut(String table, Map<String, AttributeValue> current) {
        Put.Builder put = Put.builder().tableName(table).item(replacing(current))
                .expressionAttributeNames(Map.of("#wv", TableSchema.WRITE_VERSION));
        AttributeValue seen = current.get(TableSchema.WRITE_VERSION);
        if (seen == null) {
            put.conditionExpression("attribute_not_exists(#wv)");
        } else {
            put.conditionExpression("#wv = :seen").expressionAttributeValues(Map.of(":seen", seen));
        }
        return put.build();
    }

    /** The same Put as a request of its own. */
    PutItemRequest toPutItem(String table, Map<String, AttributeValue> current) {
        Put put = toPut(table, current);
        return PutItemRequest.builder().tableName(table).item(put.item())
                .conditionExpression(put.conditionExpression())
                .expressionAttributeNames(put.expressionAttributeNames())
                .expressionAttributeValues(put.hasExpressionAttributeValues() ? put.expressionAttributeValues() : null)
                .build();
    }

    private static long version(Map<String, AttributeValue> item) {
        AttributeValue version = item.get(TableSchema.WRITE_VERSION);
        return version == null || version.n() == null ? 0 : Long.parseLong(version.n());
    }
}
