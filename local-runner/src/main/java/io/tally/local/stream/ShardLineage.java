package io.tally.local.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/**
 * The shards the poller knows, in the order they were discovered, and how they descend from each other: a shard is
 * read only after its parent is done, so that the records of one item reach the function in the order they were
 * written. Not thread-safe: the poller guards it with its lock.
 */
final class ShardLineage {
    /** A shard as the poller tracks it. */
    static final class Entry {
        final String shardId;
        final String parentShardId;
        PollerSnapshot.ShardStatus status = PollerSnapshot.ShardStatus.WAITING_FOR_PARENT;
        String checkpoint;
        ShardWorker worker;
        Thread thread;

        Entry(String shardId, String parentShardId, String checkpoint) {
            this.shardId = shardId;
            this.parentShardId = parentShardId;
            this.checkpoint = checkpoint;
        }
    }

    private final Map<String, Entry> shards = new LinkedHashMap<>();
    private Map<String, ShardCheckpoint> initialCheckpoints = Map.of();
    private long describedGeneration = -1;

    /** The checkpoints a shard starts from when it is first listed; a shard they mark done is never read again. */
    void resumeFrom(Map<String, ShardCheckpoint> checkpoints) {
        initialCheckpoints = checkpoints;
    }

    /** Tracks the shards listed that are new; returns every shard waiting for its parent whose parent is done. */
    List<Entry> track(List<Shard> listed) {
        List<String> listedIds = new ArrayList<>();
        for (Shard shard : listed) {
            listedIds.add(shard.shardId());
            if (!shards.containsKey(shard.shardId())) {
                ShardCheckpoint saved = initialCheckpoints.get(shard.shardId());
                Entry entry = new Entry(shard.shardId(), shard.parentShardId(),
                        saved == null ? null : saved.sequenceNumber());
                if (saved != null && saved.done()) {
                    entry.status = PollerSnapshot.ShardStatus.DONE;
                }
                shards.put(shard.shardId(), entry);
            }
        }
        List<Entry> ready = new ArrayList<>();
        for (Entry entry : shards.values()) {
            if (entry.status == PollerSnapshot.ShardStatus.WAITING_FOR_PARENT && parentDone(entry, listedIds)) {
                ready.add(entry);
            }
        }
        return ready;
    }

    /**
     * A parent that is no longer listed was trimmed from the stream (after 24 hours): nothing of it is left to wait
     * for, as on AWS.
     */
    private boolean parentDone(Entry entry, List<String> listedIds) {
        if (entry.parentShardId == null) {
            return true;
        }
        Entry parent = shards.get(entry.parentShardId);
        if (parent == null) {
            return !listedIds.contains(entry.parentShardId);
        }
        return parent.status == PollerSnapshot.ShardStatus.DONE;
    }

    /** A description of the stream that began at drain generation {@code generation} has been tracked. */
    void described(long generation) {
        describedGeneration = Math.max(describedGeneration, generation);
    }

    Entry get(String shardId) {
        return shards.get(shardId);
    }

    Collection<Entry> entries() {
        return shards.values();
    }

    /** Whether every shard is done, or has been read to its end and processed, since drain {@code generation}. */
    boolean drainedAt(long generation) {
        if (describedGeneration < generation) {
            return false;
        }
        for (Entry entry : shards.values()) {
            boolean drained = entry.status == PollerSnapshot.ShardStatus.DONE
                    || entry.status == PollerSnapshot.ShardStatus.PROCESSING
                    && entry.worker.caughtUpGeneration() >= generation;
            if (!drained) {
                return false;
            }
        }
        return true;
    }

    /** Which shards keep drain {@code generation} from completing, and why. */
    String behind(long generation) {
        if (describedGeneration < generation) {
            return "the stream could not be described";
        }
        List<String> behind = new ArrayList<>();
        for (Entry entry : shards.values()) {
            if (entry.status == PollerSnapshot.ShardStatus.WAITING_FOR_PARENT) {
                behind.add(entry.shardId + " waits for its parent " + entry.parentShardId);
            } else if (entry.status == PollerSnapshot.ShardStatus.PROCESSING
                    && entry.worker.caughtUpGeneration() < generation) {
                behind.add(entry.shardId + " is processing, checkpoint " + entry.worker.checkpoint());
            }
        }
        return String.join("; ", behind);
    }

    /** The progress of each shard, for a snapshot. */
    List<PollerSnapshot.ShardProgress> progress() {
        List<PollerSnapshot.ShardProgress> progress = new ArrayList<>();
        for (Entry entry : shards.values()) {
            ShardWorker worker = entry.worker;
            String checkpoint = worker != null ? worker.checkpoint() : entry.checkpoint;
            Duration lag = worker != null && entry.status == PollerSnapshot.ShardStatus.PROCESSING
                    ? worker.lag() : Duration.ZERO;
            progress.add(new PollerSnapshot.ShardProgress(entry.shardId, entry.parentShardId, entry.status,
                    checkpoint, lag));
        }
        return progress;
    }
}
