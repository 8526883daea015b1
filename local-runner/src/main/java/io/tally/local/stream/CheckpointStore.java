package io.tally.local.stream;

import java.util.Map;

/**
 * Per-shard checkpoints of a stream, so that a poller started again resumes after the last processed record instead
 * of delivering the stream from the start. Implementations are called from several shard workers at once.
 */
public interface CheckpointStore {
    /** The checkpoints of the stream's shards, by shard id; empty if there are none. */
    Map<String, ShardCheckpoint> load(String streamArn);

    void save(String streamArn, String shardId, ShardCheckpoint checkpoint);
}
