package io.tally.core;

import java.util.Map;

/**
 * How many index partitions or items the stream processor spreads each kind of derived data over. The stream
 * processor places entries with these counts and the read side reads them back with the same counts: with fewer,
 * it would miss the entries in the other shards. Both functions parse them once from the same environment
 * variables ({@link #fromEnvironment}). Changing one moves entries: run {@code verify --repair} with the new value.
 *
 * @param selector partitions of the back catalogue in the CycleSelector index ({@code back-catalogue:<k>})
 * @param status   partitions of each status in the PostsByStatus index ({@code POSTS#<status>#<k>})
 * @param global   slots of the application-wide totals ({@code GLOBAL#STATS#<k>}), placed by stream shard
 */
public record ShardSettings(int selector, int status, int global) {
    /**
     * At most 100: the global totals are read with one BatchGetItem, which takes at most 100 keys, and a list's
     * cursor carries one position per shard.
     */
    public static final int MAX = 100;
    public static final int DEFAULT = 4;
    public static final ShardSettings DEFAULTS = new ShardSettings(DEFAULT, DEFAULT, DEFAULT);

    public static final String SELECTOR_SHARDS = "SELECTOR_SHARDS";
    public static final String STATUS_SHARDS = "STATUS_SHARDS";
    public static final String GLOBAL_SHARDS = "GLOBAL_SHARDS";

    public ShardSettings {
        check("selector", selector);
        check("status", status);
        check("global", global);
    }

    /**
     * From {@code SELECTOR_SHARDS}, {@code STATUS_SHARDS} and {@code GLOBAL_SHARDS} (each 1..100, default 4).
     *
     * @throws IllegalStateException when a variable is set but not a whole number 1..100: a function must not
     *                               start with counts that differ from the other function's
     */
    public static ShardSettings fromEnvironment(Map<String, String> env) {
        return new ShardSettings(count(env, SELECTOR_SHARDS), count(env, STATUS_SHARDS), count(env, GLOBAL_SHARDS));
    }

    private static int count(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return DEFAULT;
        }
        int count;
        try {
            count = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            count = 0;
        }
        if (count < 1 || count > MAX) {
            throw new IllegalStateException("environment variable " + name + " must be a whole number 1.." + MAX
                    + ", not '" + value + "'");
        }
        return count;
    }

    private static void check(String name, int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException(name + " shard count must be 1.." + MAX + ": " + count);
        }
    }
}
