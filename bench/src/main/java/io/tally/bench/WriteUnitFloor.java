package io.tally.bench;

import io.tally.core.DerivedType;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/**
 * The least write units any processor must spend to bring a table from one state to the next, by DynamoDB's published
 * rules, computed from the two states alone (pure; no knowledge of how the states were written):
 *
 * <ul>
 *   <li><b>Item size</b> ("DynamoDB item sizes and formats"): the sum over its attributes of the name's UTF-8 bytes and
 *   the value's size: a string its UTF-8 bytes; a number 1 byte plus 1 byte per two significant digits (leading and
 *   trailing zeros trimmed); binary its raw bytes; a Boolean or null 1 byte; a list or map 3 bytes plus its elements,
 *   each 1 byte more than its own size (a map's elements with their names); a set the sum of its elements.</li>
 *   <li><b>Table</b>: an item whose state changed is written once, at one write unit per 1 KB (rounded up, at least
 *   one) of the larger of its states before and after; a deleted item costs its size before, a new one its size
 *   after.</li>
 *   <li><b>Indexes</b> ("Global secondary indexes: provisioned throughput considerations"): an item lists in an index
 *   when it holds all of the index's key attributes. Entering the index costs one write (a put of its entry), leaving
 *   it one (a delete), a change of an index key attribute two (a delete and a put), a change of a projected attribute
 *   alone one; nothing else costs the index anything. An entry's size is that of the projected item: the table's key
 *   attributes, the index's key attributes and the projected ones (all attributes for {@code ALL}). No overhead is
 *   added: the 100 bytes per index item the documentation names are storage, not write size.</li>
 * </ul>
 *
 * <p>A derived item's state here is its <b>content</b>: every attribute but the stream engine's bookkeeping (the
 * watermarks {@code wm_*}, the write version {@code wv} and the document revision {@code srcRev}), which a processor
 * without Tally's exactly-once mechanism would not write; an item left with nothing but its key and entity type (a
 * removed search entry keeps only its bookkeeping) is no item. The shard cursor is Tally's bookkeeping and costs what
 * Tally must write per batch: {@link #cursorUnits}.
 */
final class WriteUnitFloor {
    /** One write unit per this many bytes of item (rounded up). */
    static final int UNIT_BYTES = 1024;
    /** The floor's name for the units of the base table itself, as {@link RequestCounter#TABLE}. */
    static final String TABLE = RequestCounter.TABLE;

    /**
     * The claim's attributes, which the cursor holds between its two writes of a batch: {@code holder} (a Lambda
     * request id, 36 characters), {@code leaseUntil} (epoch milliseconds, 13 digits) and {@code claimedFrom} (a
     * zero-padded sequence number, 40 digits).
     */
    static final long CLAIM_BYTES = attributeSize(ShardCursorItem.HOLDER, AttributeValue.fromS("x".repeat(36)))
            + attributeSize(ShardCursorItem.LEASE_UNTIL, AttributeValue.fromN("1767225612345"))
            + attributeSize(ShardCursorItem.CLAIMED_FROM, AttributeValue.fromS("0".repeat(40)));

    /** An index of the table: its key attributes and what it projects ({@code nonKey}: {@code INCLUDE}'s list). */
    record Index(String name, List<String> keys, ProjectionType projection, Set<String> nonKey) {
        Index {
            keys = List.copyOf(keys);
            nonKey = Set.copyOf(nonKey);
        }
    }

    private final List<String> tableKeys;
    private final List<Index> indexes;

    WriteUnitFloor(List<String> tableKeys, List<Index> indexes) {
        this.tableKeys = List.copyOf(tableKeys);
        this.indexes = List.copyOf(indexes);
    }

    /** The floor of a table created by this request: its keys and its global and local secondary indexes. */
    static WriteUnitFloor of(CreateTableRequest table) {
        List<Index> indexes = new ArrayList<>();
        table.globalSecondaryIndexes().forEach(index -> indexes.add(index(index.indexName(), index.keySchema(),
                index.projection())));
        table.localSecondaryIndexes().forEach(index -> indexes.add(index(index.indexName(), index.keySchema(),
                index.projection())));
        return new WriteUnitFloor(names(table.keySchema()), indexes);
    }

    private static Index index(String name, List<KeySchemaElement> keys, Projection projection) {
        return new Index(name, names(keys), projection.projectionType(),
                projection.hasNonKeyAttributes() ? new LinkedHashSet<>(projection.nonKeyAttributes()) : Set.of());
    }

    private static List<String> names(List<KeySchemaElement> keys) {
        return keys.stream().map(KeySchemaElement::attributeName).toList();
    }

    List<Index> indexes() {
        return indexes;
    }

    /**
     * The units per destination ({@link #TABLE} or an index name) that bringing one item from {@code before} to
     * {@code after} costs at the least; empty when its content did not change. Either state may be null (no item);
     * both are taken as they are, so pass them through {@link #content} first.
     */
    Map<String, Integer> units(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        Map<String, Integer> units = new LinkedHashMap<>();
        if (same(before, after)) {
            return units;
        }
        units.put(TABLE, units(Math.max(itemSize(before), itemSize(after))));
        for (Index index : indexes) {
            int used = indexUnits(index, before, after);
            if (used > 0) {
                units.put(index.name(), used);
            }
        }
        return units;
    }

    private int indexUnits(Index index, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        boolean listedBefore = listed(index, before);
        boolean listedAfter = listed(index, after);
        if (!listedBefore && !listedAfter) {
            return 0;
        }
        if (!listedBefore) {
            return units(itemSize(projected(index, after)));
        }
        if (!listedAfter) {
            return units(itemSize(projected(index, before)));
        }
        Map<String, AttributeValue> entryBefore = projected(index, before);
        Map<String, AttributeValue> entryAfter = projected(index, after);
        for (String key : index.keys()) {
            if (!sameValue(before.get(key), after.get(key))) {
                // The entry moves: a delete of the old one and a put of the new.
                return units(itemSize(entryBefore)) + units(itemSize(entryAfter));
            }
        }
        if (same(entryBefore, entryAfter)) {
            return 0;
        }
        return Math.max(units(itemSize(entryBefore)), units(itemSize(entryAfter)));
    }

    private static boolean listed(Index index, Map<String, AttributeValue> item) {
        return item != null && item.keySet().containsAll(index.keys());
    }

    /** The index entry of an item: the table's keys, the index's keys and what the index projects. */
    Map<String, AttributeValue> projected(Index index, Map<String, AttributeValue> item) {
        if (index.projection() == ProjectionType.ALL) {
            return item;
        }
        Map<String, AttributeValue> entry = new HashMap<>();
        item.forEach((name, value) -> {
            if (tableKeys.contains(name) || index.keys().contains(name)
                    || index.projection() == ProjectionType.INCLUDE && index.nonKey().contains(name)) {
                entry.put(name, value);
            }
        });
        return entry;
    }

    /**
     * The two writes of a shard cursor in a batch (the claim and the release), each at the larger of the cursor's
     * size before the batch and while claimed (its size after the batch with the claim's attributes).
     */
    static int cursorUnits(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        long claimed = itemSize(after) + CLAIM_BYTES;
        return 2 * units(Math.max(itemSize(before), claimed));
    }

    /**
     * An item as the floor sees it: without the stream engine's bookkeeping ({@link DerivedType#isReserved}, but for
     * the key and the entity type); null when nothing else is left, or for no item.
     */
    static Map<String, AttributeValue> content(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        Map<String, AttributeValue> content = new HashMap<>();
        boolean any = false;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            String name = attribute.getKey();
            boolean identity = name.equals(TableSchema.PK) || name.equals(TableSchema.SK)
                    || name.equals(TableSchema.ENTITY_TYPE);
            if (identity || !DerivedType.isReserved(name)) {
                content.put(name, attribute.getValue());
                any |= !identity;
            }
        }
        return any ? content : null;
    }

    /** Write units for an item (or index entry) of this many bytes: one per KB, rounded up, at least one. */
    static int units(long bytes) {
        return (int) Math.max(1, (bytes + UNIT_BYTES - 1) / UNIT_BYTES);
    }

    /** The size of an item by DynamoDB's rules; 0 for none. */
    static long itemSize(Map<String, AttributeValue> item) {
        if (item == null) {
            return 0;
        }
        long size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            size += attributeSize(attribute.getKey(), attribute.getValue());
        }
        return size;
    }

    static long attributeSize(String name, AttributeValue value) {
        return utf8(name) + valueSize(value);
    }

    static long valueSize(AttributeValue value) {
        switch (value.type()) {
            case S:
                return utf8(value.s());
            case N:
                return numberSize(value.n());
            case B:
                return value.b().asByteArray().length;
            case BOOL:
            case NUL:
                return 1;
            case SS:
                return value.ss().stream().mapToLong(WriteUnitFloor::utf8).sum();
            case NS:
                return value.ns().stream().mapToLong(WriteUnitFloor::numberSize).sum();
            case BS:
                return value.bs().stream().map(SdkBytes::asByteArray).mapToLong(bytes -> bytes.length).sum();
            case L: {
                long size = 3;
                for (AttributeValue element : value.l()) {
                    size += 1 + valueSize(element);
                }
                return size;
            }
            case M: {
                long size = 3;
                for (Map.Entry<String, AttributeValue> element : value.m().entrySet()) {
                    size += 1 + attributeSize(element.getKey(), element.getValue());
                }
                return size;
            }
            default:
                throw new IllegalArgumentException("an attribute value of unknown type: " + value);
        }
    }

    /** 1 byte, plus 1 per two significant digits (leading and trailing zeros trimmed); zero is 1 byte. */
    static long numberSize(String number) {
        BigDecimal decimal = new BigDecimal(number);
        if (decimal.signum() == 0) {
            return 1;
        }
        int significant = decimal.stripTrailingZeros().precision();
        return 1 + (significant + 1) / 2;
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Whether two items (null: none) hold the same attributes with the same values, numbers compared as numbers. */
    static boolean same(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, AttributeValue> attribute : a.entrySet()) {
            if (!sameValue(attribute.getValue(), b.get(attribute.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameValue(AttributeValue a, AttributeValue b) {
        if (a != null && b != null && a.n() != null && b.n() != null) {
            return new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())) == 0;
        }
        return Objects.equals(a, b);
    }
}
