package io.tally.stream.rebuild;

import io.tally.stream.engine.SourceRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The stream position a recomputation is consistent with: per shard of the table's stream, the last record read. The
 * derived data it computes is the derived data of the base items as they were after those records (and before any
 * later one).
 *
 * @param streamArn     the stream read, or null when the table has no enabled stream (the recomputation is the scan)
 * @param shards        every shard read, parents before children
 * @param lastSequences the last sequence number read of each shard that held records, zero-padded
 * @param openShards    the shards that were open when read: only they can receive records after the position
 */
public record StreamPosition(String streamArn, List<String> shards, Map<String, String> lastSequences,
                             Set<String> openShards) {
    /** The position of a table without a stream. */
    public static final StreamPosition NONE = new StreamPosition(null, List.of(), Map.of(), Set.of());

    public StreamPosition {
        shards = List.copyOf(shards);
        lastSequences = Map.copyOf(lastSequences);
        openShards = Set.copyOf(openShards);
        for (String sequence : lastSequences.values()) {
            if (sequence.length() != SourceRecord.SEQUENCE_DIGITS) {
                throw new IllegalArgumentException("not a zero-padded sequence number: " + sequence);
            }
        }
    }

    public boolean hasStream() {
        return streamArn != null;
    }

    /** The last sequence number read of a shard (zero-padded), or null when it held no record. */
    public String last(String shardId) {
        return lastSequences.get(shardId);
    }

    /** One line for people: the stream and each shard's last sequence number, unpadded. */
    public String describe() {
        if (!hasStream()) {
            return "no stream (the scan alone)";
        }
        Map<String, String> last = new TreeMap<>();
        for (String shard : shards) {
            String sequence = lastSequences.get(shard);
            last.put(shard, sequence == null ? "no records" : sequence.replaceFirst("^0+(?=.)", ""));
        }
        return streamArn + " " + last;
    }
}
