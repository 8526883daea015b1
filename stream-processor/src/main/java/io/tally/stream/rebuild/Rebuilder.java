package io.tally.stream.rebuild;

import io.tally.core.DeadLetterItem;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.domains.Domains;
import io.tally.stream.derive.Derivations;
import io.tally.stream.derive.IntendedChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Recomputes all derived data from a scan of the base items with the same {@link Derivations} the stream
 * processor uses, reports every difference from the stored derived items, and can repair them. It is the
 * oracle of the tests, and a user's repair tool.
 *
 * <p>Repair writes absolute values computed from the scan; run it while the stream is drained and paused,
 * or the stream processor's increments in between would be overwritten.
 */
public final class Rebuilder {
    private static final Logger LOG = LoggerFactory.getLogger(Rebuilder.class);

    /** The event id of a rebuild's derivation: its events are not published. */
    private static final String REBUILD = "rebuild";

    private final DynamoDbClient dynamo;
    private final String table;
    private final Derivations derivations;
    private final int segments;

    public Rebuilder(DynamoDbClient dynamo, String table, Derivations derivations, int segments) {
        if (segments < 1) {
            throw new IllegalArgumentException("segments must be at least 1");
        }
        this.dynamo = dynamo;
        this.table = table;
        this.derivations = derivations;
        this.segments = segments;
    }

    /** Compares stored derived data with the recomputation. */
    public VerificationReport verify(LongConsumer progress) {
        Snapshot snapshot = scan(progress);
        return new VerificationReport(snapshot.baseItems, snapshot.actual.size(), snapshot.unreadable,
                compare(snapshot.expected.items(), snapshot.actual));
    }

    public VerificationReport verify() {
        return verify(count -> { });
    }

    /**
     * Writes the recomputed values over every differing derived item (watermarks untouched, the document's revision
     * set to the recomputed document's) and returns the differences it found before repairing.
     */
    public VerificationReport repair(LongConsumer progress) {
        Snapshot snapshot = scan(progress);
        Map<Key, DerivedState.Item> expected = snapshot.expected.items();
        List<Difference> differences = compare(expected, snapshot.actual);
        Map<Key, List<Difference>> byKey = new LinkedHashMap<>();
        differences.forEach(d -> byKey.computeIfAbsent(d.key(), k -> new ArrayList<>()).add(d));
        byKey.forEach((key, itemDifferences) -> dynamo.updateItem(repairRequest(table, key, itemDifferences,
                expected.containsKey(key) ? expected.get(key).revision() : null)));
        LOG.info("repaired {} derived items ({} attributes)", byKey.size(), differences.size());
        return new VerificationReport(snapshot.baseItems, snapshot.actual.size(), snapshot.unreadable, differences);
    }

    /**
     * Sets each differing attribute to its recomputed value, or removes it where it should be absent; and the
     * document's revision to the recomputed document's, so that the stream's next write of the source (a higher
     * revision) lands and older ones do not. Without a recomputed document the stored revision stays: the source
     * is gone, and its removal's revision is not known to a scan.
     *
     * @param revision the recomputed document's revision, or null when the item should hold no document
     */
    static UpdateItemRequest repairRequest(String table, Key key, List<Difference> differences, Long revision) {
        List<String> sets = new ArrayList<>();
        List<String> removes = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#type", TableSchema.ENTITY_TYPE);
        values.put(":type", AttributeValue.fromS(differences.get(0).type().attributeValue()));
        sets.add("#type = :type");
        if (revision != null) {
            names.put("#rev", TableSchema.SOURCE_REVISION);
            values.put(":rev", AttributeValue.fromN(Long.toString(revision)));
            sets.add("#rev = :rev");
        }
        int i = 0;
        for (Difference difference : differences) {
            String name = "#a" + i;
            names.put(name, difference.attribute());
            if (difference.expected() == null) {
                removes.add(name);
            } else {
                values.put(":v" + i, difference.expected());
                sets.add(name + " = :v" + i);
            }
            i++;
        }
        String update = "SET " + String.join(", ", sets) + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .updateExpression(update)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build();
    }

    static List<Difference> compare(Map<Key, DerivedState.Item> expected, Map<Key, StoredItem> actual) {
        Set<Key> keys = new TreeSet<>((a, b) -> a.pk().equals(b.pk()) ? a.sk().compareTo(b.sk()) : a.pk().compareTo(b.pk()));
        keys.addAll(expected.keySet());
        keys.addAll(actual.keySet());
        List<Difference> differences = new ArrayList<>();
        for (Key key : keys) {
            DerivedState.Item want = expected.get(key);
            StoredItem have = actual.get(key);
            EntityType type = want != null ? want.type().entityType() : have.type();
            if (have != null && want != null && !have.type().equals(type)) {
                differences.add(new Difference(key, type, TableSchema.ENTITY_TYPE,
                        AttributeValue.fromS(type.attributeValue()), AttributeValue.fromS(have.type().attributeValue())));
                continue;
            }
            Optional<DerivedType> declared = want != null ? Optional.of(want.type()) : Domains.derivedType(type.attributeValue());
            Map<String, AttributeValue> wanted = new HashMap<>();
            if (want != null) {
                want.counters().forEach((name, value) -> wanted.put(name, AttributeValue.fromN(Long.toString(value))));
                wanted.putAll(want.document());
            }
            Map<String, AttributeValue> stored = have == null ? Map.of() : have.attributes();
            Set<String> names = new TreeSet<>(wanted.keySet());
            names.addAll(stored.keySet());
            for (String name : names) {
                AttributeValue w = wanted.get(name);
                AttributeValue h = stored.get(name);
                boolean counter = declared.map(d -> d.isCounter(name)).orElse(false);
                if (counter ? !sameNumber(w, h) : !java.util.Objects.equals(normalize(w), normalize(h))) {
                    differences.add(new Difference(key, type, name, w, h));
                }
            }
        }
        return differences;
    }

    /** Counters compare as numbers, and an absent counter is zero. */
    private static boolean sameNumber(AttributeValue a, AttributeValue b) {
        return number(a).compareTo(number(b)) == 0;
    }

    private static java.math.BigDecimal number(AttributeValue value) {
        if (value == null) {
            return java.math.BigDecimal.ZERO;
        }
        if (value.n() == null) {
            return java.math.BigDecimal.valueOf(Long.MIN_VALUE);
        }
        return new java.math.BigDecimal(value.n());
    }

    /** Numbers in documents compare by value too ("70" and "70.0" are one number to DynamoDB). */
    private static Object normalize(AttributeValue value) {
        if (value != null && value.n() != null) {
            return new java.math.BigDecimal(value.n()).stripTrailingZeros();
        }
        return value;
    }

    /** A stored derived item, reduced to what the verification compares. */
    record StoredItem(EntityType type, Map<String, AttributeValue> attributes) {
        static StoredItem of(EntityType type, Map<String, AttributeValue> item) {
            Map<String, AttributeValue> attributes = new HashMap<>(item);
            attributes.remove(TableSchema.PK);
            attributes.remove(TableSchema.SK);
            attributes.remove(TableSchema.ENTITY_TYPE);
            attributes.remove(TableSchema.SOURCE_REVISION);
            attributes.keySet().removeIf(name -> name.startsWith(TableSchema.WATERMARKS + "_"));
            return new StoredItem(type, attributes);
        }
    }

    private static final class Snapshot {
        final DerivedState expected = new DerivedState();
        final Map<Key, StoredItem> actual = new HashMap<>();
        long baseItems;
        long unreadable;
    }

    private Snapshot scan(LongConsumer progress) {
        Snapshot snapshot = new Snapshot();
        scanAll(snapshot, progress);
        return snapshot;
    }

    /**
     * Every derived item is compared, whatever its type: one of a type the application does not declare (say, left
     * by a removed domain) shows as a difference to remove. Dead letters are records and shard cursors bookkeeping, not derived data.
     */
    private void classify(Map<String, AttributeValue> item, Snapshot snapshot) {
        String name = Items.entityTypeName(item);
        if (name == null) {
            snapshot.unreadable++;
            return;
        }
        Optional<EntityType> type = Domains.entityType(name);
        if (type.isEmpty()) {
            // A derived type is known by its declaration; anything else unknown is an unreadable base item.
            snapshot.unreadable++;
            return;
        }
        if (type.get().isDerived()) {
            if (!type.get().equals(DeadLetterItem.TYPE) && !type.get().equals(ShardCursorItem.TYPE)) {
                snapshot.actual.put(Key.of(item), StoredItem.of(type.get(), item));
            }
            return;
        }
        snapshot.baseItems++;
        IntendedChanges contribution = derivations.derive(type.get(), REBUILD, null, item);
        if (!contribution.isClean()) {
            // The stream processor dead-letters such an item and lets it contribute nothing; so does the oracle.
            snapshot.unreadable++;
            return;
        }
        snapshot.expected.add(contribution);
    }

    /**
     * A parallel scan, each segment on its own thread, strongly consistent so that a drained stream compares
     * exactly. Pages are classified as they arrive, so memory holds the derived state, not the table.
     */
    private void scanAll(Snapshot snapshot, LongConsumer progress) {
        AtomicLong scanned = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(segments);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int segment = 0; segment < segments; segment++) {
                ScanRequest request = ScanRequest.builder().tableName(table).consistentRead(true)
                        .segment(segment).totalSegments(segments).build();
                futures.add(pool.submit(() -> dynamo.scanPaginator(request).forEach(page -> {
                    // Progress under the same lock: the consumer sees one call at a time, counts only growing.
                    synchronized (snapshot) {
                        page.items().forEach(item -> classify(item, snapshot));
                        progress.accept(scanned.addAndGet(page.count()));
                    }
                })));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while scanning " + table, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
