package io.tally.stream.engine;

import io.tally.core.Key;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Document;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.events.DomainEvent;
import java.util.List;
import java.util.Map;

/**
 * What one record asks of derived data, announces and removes in turn, once its derivation has run.
 *
 * @param skipReason   why the record derives nothing by design (null when it is processed)
 * @param poisonReason why (part of) the record could not be processed (null when it could); a poisoned record may
 *                     still carry the contribution of its good side
 */
record RecordChanges(SourceRecord record, String paddedSequence, Map<CounterRef, Long> counterDeltas,
                     Map<Key, Document> documents, List<DomainEvent> events, List<Cascade> cascades,
                     String skipReason, String poisonReason) {

    /**
     * The record's changes as the engine writes them: without the documents the change restates unchanged. Such a
     * write would only move the item's revision; the document the item holds (or an earlier record of the batch
     * writes) already has these values, and a document of an older state delivered later through another shard is
     * always followed by the record that wrote these values (see {@code docs/exactly-once.md}).
     */
    static RecordChanges derived(SourceRecord record, IntendedChanges changes) {
        Map<Key, Document> documents = changes.documents();
        if (!changes.restated().isEmpty()) {
            documents = new java.util.HashMap<>(documents);
            documents.keySet().removeAll(changes.restated());
        }
        return new RecordChanges(record, record.paddedSequence(), changes.counterDeltas(), documents,
                changes.events(), changes.cascades(), null,
                changes.isClean() ? null : String.join("; ", changes.problems()));
    }

    static RecordChanges skipped(SourceRecord record, String reason) {
        return new RecordChanges(record, record.paddedSequence(), Map.of(), Map.of(), List.of(), List.of(), reason,
                null);
    }

    static RecordChanges poisoned(SourceRecord record, String reason) {
        return new RecordChanges(record, record.paddedSequence(), Map.of(), Map.of(), List.of(), List.of(), null,
                reason);
    }

    boolean isPoison() {
        return poisonReason != null;
    }
}
