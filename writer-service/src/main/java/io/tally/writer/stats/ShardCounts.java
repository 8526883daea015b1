package io.tally.writer.stats;

/**
 * How many index partitions or items the stream processor spreads each kind of derived data over. The read
 * side must use the same counts as the stream processor that wrote the data (both read {@code SELECTOR_SHARDS},
 * {@code STATUS_SHARDS} and {@code GLOBAL_SHARDS}): with fewer, it would miss the entries in the other shards.
 *
 * @param selector partitions of the back catalogue in the CycleSelector index ({@code back-catalogue:<k>})
 * @param status   partitions of each status in the PostsByStatus index ({@code POSTS#<status>#<k>})
 * @param global   items of the application-wide totals ({@code GLOBAL#STATS#<k>})
 */
public record ShardCounts(int selector, int status, int global) {
    /**
     * At most 100: the global totals are read with one BatchGetItem, which takes at most 100 keys, and a list's
     * cursor carries one position per shard.
     */
    public static final int MAX = 100;
    public static final int DEFAULT = 4;
    public static final ShardCounts DEFAULTS = new ShardCounts(DEFAULT, DEFAULT, DEFAULT);

    public ShardCounts {
        check("selector", selector);
        check("status", status);
        check("global", global);
    }

    private static void check(String name, int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException(name + " shard count must be 1.." + MAX + ": " + count);
        }
    }
}
