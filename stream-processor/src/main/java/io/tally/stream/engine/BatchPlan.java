package io.tally.stream.engine;

import io.tally.core.Key;
import java.util.List;
import java.util.Map;

/**
 * A batch of one shard, derived and coalesced: each record's changes in stream order, and per derived item the
 * contributions to write.
 */
record BatchPlan(String shardId, List<RecordChanges> changes, Map<Key, KeyContributions> byKey, int skipped,
                 int poison) {
    BatchPlan {
        changes = List.copyOf(changes);
    }

    /** Whether the batch has nothing to write, file, remove or publish: only records that derive nothing. */
    boolean isIdle() {
        return firstWork() == null;
    }

    /**
     * The zero-padded sequence of the first record with something to write, file, remove or publish, or null. The shard's
     * cursor is claimed from it: a record before it changes nothing, so it can never be the one left pending.
     */
    String firstWork() {
        for (RecordChanges change : changes) {
            if (change.isPoison() || !change.counterDeltas().isEmpty() || !change.documents().isEmpty()
                    || !change.events().isEmpty() || !change.cascades().isEmpty()) {
                return change.paddedSequence();
            }
        }
        return null;
    }

    List<RecordChanges> poisoned() {
        return changes.stream().filter(RecordChanges::isPoison).toList();
    }

    /** The record of a zero-padded sequence number, as the stream named it. */
    String sequenceNumberOf(String paddedSequence) {
        SourceRecord record = record(paddedSequence);
        return record == null ? null : record.sequenceNumber();
    }

    /** The batch's record at {@code paddedSequence}, or null. */
    SourceRecord record(String paddedSequence) {
        for (RecordChanges change : changes) {
            if (change.paddedSequence().equals(paddedSequence)) {
                return change.record();
            }
        }
        return null;
    }
}
