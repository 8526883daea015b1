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

    List<RecordChanges> poisoned() {
        return changes.stream().filter(RecordChanges::isPoison).toList();
    }

    /** The record of a zero-padded sequence number, as the stream named it. */
    String sequenceNumberOf(String paddedSequence) {
        for (RecordChanges change : changes) {
            if (change.paddedSequence().equals(paddedSequence)) {
                return change.record().sequenceNumber();
            }
        }
        return null;
    }
}
