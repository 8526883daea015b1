package io.tally.stream.derive;

/**
 * Shard counts of the derived data. Changing one moves entries: run the rebuild with the new value.
 *
 * @param selectorShards partitions of the back catalogue in the CycleSelector index
 * @param statusShards   partitions of each status in the status index
 * @param globalShards   items the application-wide totals are spread over
 */
public record DerivationSettings(int selectorShards, int statusShards, int globalShards) {
    public static final DerivationSettings DEFAULTS = new DerivationSettings(4, 4, 4);

    public DerivationSettings {
        if (selectorShards < 1 || statusShards < 1 || globalShards < 1) {
            throw new IllegalArgumentException("shard counts must be at least 1");
        }
    }
}
