package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.IntendedChanges;
import io.tally.stream.engine.SourceRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the stream's records, read after the scan, tell a rebuild: the state of each base item at the stream's
 * position (the new image of its last record, nothing after a REMOVE), the state the scan saw of it (found among
 * its records' images, and taken out of the recomputation there and then), and which derived items each shard's
 * records change, as the engine derives them.
 *
 * <p>Memory: per base item with records, its key and its last image, however many records it has (the images of
 * the records before are let go); per derived item they change, its key, the attributes they write and, per shard,
 * one sequence number. The state the scan saw is found by its fingerprint ({@link ScannedStates}), never held.
 *
 * <p>Records must arrive per shard in stream order, parents before children, one at a time (not thread-safe: the
 * stream's readers hand it their pages one after the other). Records of derived items (the stream's echo of the
 * engine's own writes) tell nothing and are passed over.
 */
final class StreamChanges implements Consumer<SourceRecord> {
    /** One base item with records: its last image, and whether the state the scan saw was found (and taken out). */
    private static final class History {
        Map<String, AttributeValue> last;
        boolean scannedFound;
    }

    /**
     * What the records of the stream do to one derived item.
     *
     * @param type       its derived type, as the derivations address it
     * @param lastChange per shard, the padded sequence number of the last record that changes it (the engine's
     *                   watermark for that shard once it has applied the shard that far)
     * @param attributes every attribute such a record writes (counters, and the owned document fields)
     */
    record Touches(DerivedType type, Map<String, String> lastChange, Set<String> attributes) {
    }

    private final Derivations derivations;
    private final UnaryOperator<String> lineages;
    private final Recomputation recomputation;
    private final ScannedStates scannedStates;
    private final Map<Key, History> histories = new HashMap<>();
    private final Map<Key, Touches> touches = new HashMap<>();
    private long records;

    /**
     * Changes of shards that each start a lineage of their own ({@link AppliedRecords#NONE}'s lineages).
     */
    StreamChanges(Derivations derivations, Recomputation recomputation) {
        this(derivations, AppliedRecords.NONE::lineage, recomputation);
    }

    /**
     * @param lineages      by shard id, the lineage under which the shard writes its partials (the cursors',
     *                      {@link AppliedRecords#lineage}): records are placed as the engine placed them
     * @param recomputation the scan's: the state it saw of an item with records is taken out of it as soon as a
     *                      record's image shows it, and {@link #countLastStates} adds the states at the position
     */
    StreamChanges(Derivations derivations, UnaryOperator<String> lineages, Recomputation recomputation) {
        this.derivations = derivations;
        this.lineages = lineages;
        this.recomputation = recomputation;
        this.scannedStates = recomputation.scannedStates;
    }

    @Override
    public void accept(SourceRecord record) {
        records++;
        String type = entityTypeName(record);
        if (Recomputation.isDerived(derivations.registry(), type)) {
            return;
        }
        Map<String, AttributeValue> keys = record.keys();
        if (keys.get(TableSchema.PK) == null || keys.get(TableSchema.SK) == null) {
            return;
        }
        Key key = Key.of(keys);
        History history = histories.computeIfAbsent(key, k -> new History());
        history.last = record.newImage();
        if (!history.scannedFound) {
            long print = scannedStates.get(key);
            if (print != ScannedStates.NOT_SCANNED && print != ScannedStates.AMBIGUOUS) {
                // Only scanned states leave the recomputation before the read ends, the states at the position all
                // enter after it: a document never has two owners on the way.
                if (matches(record.oldImage(), print)) {
                    recomputation.count(record.oldImage(), -1);
                    history.scannedFound = true;
                } else if (matches(record.newImage(), print)) {
                    recomputation.count(record.newImage(), -1);
                    history.scannedFound = true;
                }
            }
        }
        touch(record, changesOf(record, type));
    }

    private static boolean matches(Map<String, AttributeValue> image, long print) {
        return image != null && ScannedStates.fingerprint(image) == print;
    }

    /** Records read, echoes of derived items included. */
    long records() {
        return records;
    }

    Map<Key, Touches> touches() {
        return touches;
    }

    /**
     * Completes, once the stream is read to its end, the replacement of the state the scan saw of every base item
     * with records by its state at the stream's position: the scanned states are out, the last images go in. Every
     * change after the scan began is in the stream (it was read after the scan ended), so the state the scan saw is
     * among the images of the item's records; when it is not, the stream does not cover the scan and no position is
     * consistent with it.
     *
     * @throws IllegalStateException when the stream does not hold the state the scan saw of an item
     */
    void countLastStates() {
        for (Map.Entry<Key, History> entry : histories.entrySet()) {
            long print = scannedStates.get(entry.getKey());
            if (print == ScannedStates.NOT_SCANNED) {
                continue;
            }
            if (!entry.getValue().scannedFound) {
                throw new IllegalStateException("the stream does not hold the state the scan saw of " + entry.getKey()
                        + (print == ScannedStates.AMBIGUOUS ? " (its key hash is shared: run again)"
                        : ": was the stream enabled after the scan began, or did reading take longer than the"
                        + " stream keeps records?"));
            }
        }
        for (History history : histories.values()) {
            if (history.last != null) {
                recomputation.count(history.last, 1);
            }
        }
    }

    /** The entity type attribute of the record's images, or null (none, or two that differ: poison either way). */
    private static String entityTypeName(SourceRecord record) {
        try {
            return record.entityType().orElse(null);
        } catch (MalformedItemException e) {
            return null;
        }
    }

    /** The changes the engine derives from the record; none for a record it skips or dead-letters whole. */
    private IntendedChanges changesOf(SourceRecord record, String type) {
        if (type == null || !(derivations.route(type) instanceof Derivations.Derive)) {
            return IntendedChanges.NONE;
        }
        Optional<EntityType> entityType = derivations.registry().entityType(type);
        try {
            return entityType.map(t -> derivations.derive(t, record.eventId(), record.oldImage(), record.newImage()))
                    .orElse(IntendedChanges.NONE);
        } catch (RuntimeException e) {
            return IntendedChanges.NONE;
        }
    }

    private void touch(SourceRecord record, IntendedChanges changes) {
        changes.counterDeltas().forEach((counter, delta) -> touches(derivations.place(counter,
                counter.type().isShared() ? lineages.apply(record.shardId()) : record.shardId()),
                counter.type(), record).attributes().add(counter.attribute()));
        // A document the change restates unchanged is not written by the engine (RecordChanges.derived): the record
        // does not touch the item, and its watermark does not move for it.
        changes.documents().forEach((key, document) -> {
            if (!changes.restated().contains(key)) {
                touches(key, document.type(), record).attributes().addAll(document.owned());
            }
        });
    }

    private Touches touches(Key key, DerivedType type, SourceRecord record) {
        Touches touched = touches.computeIfAbsent(key, k -> new Touches(type, new TreeMap<>(), new HashSet<>()));
        touched.lastChange().put(record.shardId(), record.paddedSequence());
        return touched;
    }
}
