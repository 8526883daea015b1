package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Compares stored derived items with the recomputation, attribute by attribute (pure). */
final class Comparison {
    /** Keys in table order: by partition key, then sort key. */
    static final Comparator<Key> KEY_ORDER = Comparator.comparing(Key::pk).thenComparing(Key::sk);

    private Comparison() {
    }

    /**
     * A stored derived item, reduced to what the verification compares, and its watermarks.
     *
     * @param declared   the declaration of its type, or null for a type the registry does not know (left by a removed
     *                   domain, say)
     * @param attributes its content: every attribute but the key, the entity type and the bookkeeping ones
     *                   ({@link DerivedType#isReserved})
     * @param watermarks its {@code wm_*} attributes, by name
     */
    record StoredItem(EntityType type, DerivedType declared, Map<String, AttributeValue> attributes,
                      Map<String, String> watermarks) {
        StoredItem(DerivedType declared, Map<String, AttributeValue> attributes, Map<String, String> watermarks) {
            this(declared.entityType(), declared, attributes, watermarks);
        }

        StoredItem(DerivedType declared, Map<String, AttributeValue> attributes) {
            this(declared, attributes, Map.of());
        }

        static StoredItem of(EntityType type, Optional<DerivedType> declared, Map<String, AttributeValue> item) {
            Map<String, AttributeValue> attributes = new HashMap<>();
            Map<String, String> watermarks = new TreeMap<>();
            item.forEach((name, value) -> {
                if (Watermarks.isWatermark(name)) {
                    watermarks.put(name, value.s());
                } else if (!DerivedType.isReserved(name)) {
                    attributes.put(name, value);
                }
            });
            return new StoredItem(type, declared.orElse(null), attributes, watermarks);
        }
    }

    static List<Difference> compare(Map<Key, DerivedState.Item> expected, Map<Key, StoredItem> actual) {
        Set<Key> keys = new TreeSet<>(KEY_ORDER);
        keys.addAll(expected.keySet());
        keys.addAll(actual.keySet());
        List<Difference> differences = new ArrayList<>();
        for (Key key : keys) {
            differences.addAll(compare(key, expected.get(key), actual.get(key)));
        }
        return differences;
    }

    /**
     * The differences of one derived item; {@code want} or {@code have} may be null, not both. An item of a type with a
     * constant document whose counters are all 0 is the same as none ({@link DerivedType#hasConstantDocument}): the
     * stream keeps it, with its document, once nothing counts on it, and a recomputation has nothing there.
     */
    static List<Difference> compare(Key key, DerivedState.Item want, StoredItem have) {
        if (want != null && want.type().hasConstantDocument()
                && want.counters().values().stream().allMatch(value -> value == 0)) {
            want = null;
        }
        if (want == null && (have == null || isEmptyEntry(have))) {
            return List.of();
        }
        EntityType type = want != null ? want.type().entityType() : have.type();
        if (have != null && want != null && !have.type().equals(type)) {
            return List.of(new Difference(key, type, TableSchema.ENTITY_TYPE,
                    AttributeValue.fromS(type.attributeValue()), AttributeValue.fromS(have.type().attributeValue())));
        }
        Optional<DerivedType> declared = Optional.ofNullable(want != null ? want.type() : have.declared());
        Map<String, AttributeValue> wanted = wanted(want);
        Map<String, AttributeValue> stored = have == null ? Map.of() : have.attributes();
        Set<String> names = new TreeSet<>(wanted.keySet());
        names.addAll(stored.keySet());
        List<Difference> differences = new ArrayList<>();
        for (String name : names) {
            AttributeValue w = wanted.get(name);
            AttributeValue h = stored.get(name);
            boolean counter = declared.map(d -> d.isCounter(name)).orElse(false);
            if (counter ? !sameNumber(w, h) : !Objects.equals(normalize(w), normalize(h))) {
                differences.add(new Difference(key, type, name, w, h));
            }
        }
        return differences;
    }

    /** A stored item of a type with a constant document, all its counters 0. */
    private static boolean isEmptyEntry(StoredItem have) {
        DerivedType declared = have.declared();
        return declared != null && declared.hasConstantDocument() && have.attributes().entrySet().stream()
                .filter(attribute -> declared.isCounter(attribute.getKey()))
                .allMatch(attribute -> sameNumber(attribute.getValue(), null));
    }

    /** The attributes a derived item should hold: its non-zero counters and its document values. */
    static Map<String, AttributeValue> wanted(DerivedState.Item want) {
        Map<String, AttributeValue> wanted = new HashMap<>();
        if (want != null) {
            want.counters().forEach((name, value) -> wanted.put(name, AttributeValue.fromN(Long.toString(value))));
            wanted.putAll(want.document());
        }
        return wanted;
    }

    /** Counters compare as numbers, and an absent counter is zero. */
    private static boolean sameNumber(AttributeValue a, AttributeValue b) {
        return number(a).compareTo(number(b)) == 0;
    }

    private static BigDecimal number(AttributeValue value) {
        if (value == null) {
            return BigDecimal.ZERO;
        }
        if (value.n() == null) {
            return BigDecimal.valueOf(Long.MIN_VALUE);
        }
        return new BigDecimal(value.n());
    }

    /** Numbers in documents compare by value too ("70" and "70.0" are one number to DynamoDB). */
    private static Object normalize(AttributeValue value) {
        if (value != null && value.n() != null) {
            return new BigDecimal(value.n()).stripTrailingZeros();
        }
        return value;
    }
}
