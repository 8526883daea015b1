package io.tally.stream.engine;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.derive.CounterRef;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.Document;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a batch of one shard: classifies each record (derive, skip by design, poison), derives it, refuses changes
 * that cannot join the batch's writes, and coalesces the rest per derived item. Pure but for the metrics.
 */
final class BatchPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(BatchPlanner.class);

    private final Derivations derivations;
    private final StreamMetrics metrics;

    BatchPlanner(Derivations derivations, StreamMetrics metrics) {
        this.derivations = derivations;
        this.metrics = metrics;
    }

    /**
     * The plan of a batch whose shard starts a lineage of its own (its partials under its own id).
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    BatchPlan plan(List<SourceRecord> batch, Instant now) {
        String shardId = batch.isEmpty() ? null : batch.get(0).shardId();
        return plan(batch, () -> shardId, now);
    }

    /**
     * The plan of a batch of a shard of this {@code lineage} ({@link ShardCursors#lineage}), which places its changes
     * of shared items ({@link Derivations#place}); asked only when the batch changes a shared item.
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    BatchPlan plan(List<SourceRecord> batch, Supplier<String> lineage, Instant now) {
        requireOneShardInOrder(batch);
        String shardId = batch.isEmpty() ? null : batch.get(0).shardId();
        Function<CounterRef, Key> place = counter -> counter.type().isShared()
                ? derivations.place(counter, lineage.get()) : counter.key();
        List<RecordChanges> changes = new ArrayList<>(batch.size());
        Map<Key, KeyContributions> byKey = new LinkedHashMap<>();
        int skipped = 0;
        int poison = 0;
        for (SourceRecord record : batch) {
            if (record.approximateCreationTime() != null) {
                metrics.lag(Duration.between(record.approximateCreationTime(), now));
            }
            RecordChanges change = derive(record);
            String conflict = conflict(change, place, byKey);
            if (conflict != null) {
                change = RecordChanges.poisoned(record, conflict);
            }
            if (change.skipReason() != null) {
                skipped++;
                metrics.skipped(change.skipReason());
            }
            if (change.isPoison()) {
                poison++;
                metrics.poison();
                LOG.warn("poison record {} (sequence {}): {}", record.eventId(), record.sequenceNumber(),
                        change.poisonReason());
            }
            coalesce(change, shardId, place, byKey);
            changes.add(change);
        }
        return new BatchPlan(shardId, changes, byKey, skipped, poison);
    }

    /** The derivation of one record; never throws for anything the record holds. */
    private RecordChanges derive(SourceRecord record) {
        Optional<String> type;
        try {
            type = record.entityType();
        } catch (MalformedItemException e) {
            metrics.record(record.eventName(), "unknown");
            return RecordChanges.poisoned(record, "entity type: " + e.getMessage());
        }
        if (type.isEmpty()) {
            metrics.record(record.eventName(), "none");
            return RecordChanges.poisoned(record, "no entity type attribute");
        }
        Derivations.Route route = derivations.route(type.get());
        if (route instanceof Derivations.Unknown) {
            metrics.record(record.eventName(), "unknown");
            return RecordChanges.poisoned(record, "entity type: unknown entity type: " + type.get());
        }
        metrics.record(record.eventName(), type.get());
        if (route instanceof Derivations.Skip skip) {
            return RecordChanges.skipped(record, skip.reason());
        }
        Derivations.Derive derive = (Derivations.Derive) route;
        try {
            return RecordChanges.derived(record, derivations.derive(derive.derivation().entityType(), record.eventId(),
                    record.oldImage(), record.newImage()));
        } catch (RuntimeException | Error e) {
            // A derivation must report problems rather than throw; one that throws is a bug on this input, whether
            // it throws an exception or an error (an assertion, a stack overflow on a deeply nested image, a class
            // that failed to initialise). Only an error that leaves the JVM itself in doubt (out of memory, an
            // internal error) fails the batch: Lambda then retries it in a fresh execution environment.
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw e;
            }
            return RecordChanges.poisoned(record, "derivation: " + e);
        }
    }

    /**
     * Why a record's changes cannot join the batch's writes (null when they can): derivations that disagree on the
     * type of a derived item, or a record that changes more attributes of one item than one write can hold
     * ({@link KeyContributions#MAX_ATTRIBUTES_PER_WRITE}; DynamoDB would refuse the write every time). Either is a
     * derivation bug; the record goes to the dead-letter route instead of making a write that can never succeed. (A
     * counter and a document field never share an attribute: each derived type declares them apart.)
     */
    private static String conflict(RecordChanges change, Function<CounterRef, Key> place,
                                   Map<Key, KeyContributions> byKey) {
        Map<Key, DerivedType> types = new LinkedHashMap<>();
        Map<Key, Set<String>> attributes = new HashMap<>();
        List<Map.Entry<Key, DerivedType>> claims = new ArrayList<>();
        for (CounterRef counter : change.counterDeltas().keySet()) {
            Key key = place.apply(counter);
            claims.add(Map.entry(key, counter.type()));
            attributes.computeIfAbsent(key, k -> new HashSet<>()).add(counter.attribute());
        }
        for (Map.Entry<Key, Document> document : change.documents().entrySet()) {
            claims.add(Map.entry(document.getKey(), document.getValue().type()));
            Set<String> changed = attributes.computeIfAbsent(document.getKey(), k -> new HashSet<>());
            changed.addAll(document.getValue().values().keySet());
            changed.addAll(document.getValue().owned());
        }
        for (Map.Entry<Key, Set<String>> item : attributes.entrySet()) {
            if (item.getValue().size() > KeyContributions.MAX_ATTRIBUTES_PER_WRITE) {
                return "changes " + item.getValue().size() + " attributes of " + item.getKey() + ", more than one"
                        + " write holds (" + KeyContributions.MAX_ATTRIBUTES_PER_WRITE + ")";
            }
        }
        for (Map.Entry<Key, DerivedType> claim : claims) {
            DerivedType seen = types.putIfAbsent(claim.getKey(), claim.getValue());
            KeyContributions existing = byKey.get(claim.getKey());
            DerivedType before = existing == null ? null : existing.type();
            if (seen != null && seen != claim.getValue() || before != null && before != claim.getValue()) {
                return "derivations disagree on the type of " + claim.getKey();
            }
        }
        return null;
    }

    /**
     * Adds the record's changes to those of the batch, per derived item (a shared counter at its lineage's partial, in
     * the lineage's slot for a slotted one); each item's writes carry the watermark of the batch's shard.
     */
    private static void coalesce(RecordChanges change, String shardId, Function<CounterRef, Key> place,
                                 Map<Key, KeyContributions> byKey) {
        Function<Key, KeyContributions> create = key -> new KeyContributions(key, shardId);
        change.counterDeltas().forEach((counter, delta) -> byKey
                .computeIfAbsent(place.apply(counter), create)
                .addCounter(change.paddedSequence(), counter.type(), counter.attribute(), delta));
        change.documents().forEach((key, document) -> byKey.computeIfAbsent(key, create)
                .addDocument(change.paddedSequence(), document));
    }

    private static void requireOneShardInOrder(List<SourceRecord> batch) {
        for (int i = 1; i < batch.size(); i++) {
            SourceRecord previous = batch.get(i - 1);
            SourceRecord record = batch.get(i);
            if (!record.shardId().equals(previous.shardId())) {
                throw new IllegalArgumentException("a batch holds the records of one shard: " + previous.shardId()
                        + " and " + record.shardId());
            }
            if (record.paddedSequence().compareTo(previous.paddedSequence()) <= 0) {
                throw new IllegalArgumentException("records out of stream order: " + previous.sequenceNumber()
                        + " before " + record.sequenceNumber());
            }
        }
    }
}
