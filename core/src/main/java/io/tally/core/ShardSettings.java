package io.tally.core;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shard counts the functions run with, by {@link ShardSetting}: each domain declares the settings of what it
 * spreads ({@code Declaration.shardSettings}), and Tally's own is {@link #GLOBAL}. Both functions parse the declared
 * ones once from the same environment ({@link #fromEnvironment}); a setting not given is its default.
 *
 * @param counts the counts given, by environment variable; any other setting is its default
 */
public record ShardSettings(Map<String, Integer> counts) {
    /**
     * At most 100: the global totals are read with one BatchGetItem, which takes at most 100 keys, and a list's cursor
     * carries one position per shard.
     */
    public static final int MAX = 100;
    public static final int DEFAULT = 4;
    /** Every setting at its default. */
    public static final ShardSettings DEFAULTS = new ShardSettings(Map.of());
    /** Tally's own: the slots of the application-wide totals ({@code GLOBAL#STATS#<k>}), placed by stream shard. */
    public static final ShardSetting GLOBAL = new ShardSetting("GLOBAL_SHARDS", DEFAULT,
            "Partitions the global counters are spread over");

    public ShardSettings {
        counts = Map.copyOf(counts);
        counts.forEach(ShardSettings::check);
    }

    /** The count of {@code setting}: the one given, else its default. */
    public int count(ShardSetting setting) {
        return counts.getOrDefault(setting.variable(), setting.defaultCount());
    }

    /** The count of {@link #GLOBAL}. */
    public int global() {
        return count(GLOBAL);
    }

    /** These settings with {@code setting} at {@code count}. */
    public ShardSettings with(ShardSetting setting, int count) {
        Map<String, Integer> more = new TreeMap<>(counts);
        more.put(setting.variable(), count);
        return new ShardSettings(more);
    }

    /**
     * The variables of the {@code declared} settings that the environment sets (each 1 to {@value #MAX}); any other
     * variable is not read.
     *
     * @throws IllegalStateException when one is set but not a whole number 1..100: a function must not start with
     *                               counts that differ from the other function's
     */
    public static ShardSettings fromEnvironment(Map<String, String> env, List<ShardSetting> declared) {
        Map<String, Integer> counts = new TreeMap<>();
        for (ShardSetting setting : declared) {
            String value = env.get(setting.variable());
            if (value != null && !value.isBlank()) {
                counts.put(setting.variable(), parse(setting.variable(), value));
            }
        }
        return new ShardSettings(counts);
    }

    /**
     * The variables of the environment whose names end in {@code _SHARDS} that none of the {@code declared} settings
     * reads, sorted: a misspelt setting would otherwise be its default without a word. The functions warn of them.
     */
    public static List<String> undeclared(Map<String, String> env, List<ShardSetting> declared) {
        return env.keySet().stream().filter(name -> name.endsWith("_SHARDS"))
                .filter(name -> declared.stream().noneMatch(setting -> setting.variable().equals(name)))
                .sorted().toList();
    }

    private static int parse(String name, String value) {
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

    static void check(String variable, int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException(variable + " must be 1.." + MAX + ": " + count);
        }
    }
}
