package io.tally.stream.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The lineages of the shards this engine has processed ({@link ShardCursors#lineage}), kept once read: a lineage never
 * changes once settled, so an execution environment reads its shard's once.
 */
final class ShardLineages {
    private final ShardCursors cursors;
    private final ShardParents parents;
    private final Map<String, String> known = new ConcurrentHashMap<>();

    ShardLineages(ShardCursors cursors, ShardParents parents) {
        this.cursors = cursors;
        this.parents = parents;
    }

    /**
     * The lineage of {@code shardId}, read or settled at the first call of the supplier and the same at every later
     * one. The supplier throws {@link Unavailable} when the cursors could not be read or written: nothing may be
     * written.
     */
    Supplier<String> of(String shardId) {
        return new Supplier<>() {
            private String lineage;

            @Override
            public synchronized String get() {
                if (lineage == null) {
                    lineage = known.get(shardId);
                }
                if (lineage == null) {
                    try {
                        lineage = cursors.lineage(shardId, parents);
                    } catch (RuntimeException e) {
                        throw new Unavailable(shardId, e);
                    }
                    known.put(shardId, lineage);
                }
                return lineage;
            }
        };
    }

    /** The lineage of a shard could not be read or settled. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String shardId, RuntimeException cause) {
            super("the lineage of shard " + shardId + " could not be read: " + cause, cause);
        }
    }
}
