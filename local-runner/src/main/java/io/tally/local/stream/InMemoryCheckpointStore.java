package io.tally.local.stream;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Checkpoints that live as long as the process: for tests, and for a runner whose database is in memory too. */
public final class InMemoryCheckpointStore implements CheckpointStore {
    private final Map<String, Map<String, ShardCheckpoint>> streams = new ConcurrentHashMap<>();

    @Override
    public Map<String, ShardCheckpoint> load(String streamArn) {
        return Map.copyOf(streams.getOrDefault(streamArn, Map.of()));
    }

    @Override
    public void save(String streamArn, String shardId, ShardCheckpoint checkpoint) {
        streams.computeIfAbsent(streamArn, arn -> new ConcurrentHashMap<>()).put(shardId, checkpoint);
    }

    @Override
    public String toString() {
        return "memory";
    }
}
