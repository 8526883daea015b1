package io.tally.core;

/**
 * Where the watermark pruner's pass over the table stands, so that a pass too long for one run continues in the next
 * ({@code docs/exactly-once.md}, "Watermark growth"). Bookkeeping, not derived data: the rebuild neither computes
 * nor compares it.
 *
 * <pre>
 * PrunerPosition  PRUNER#WATERMARKS                  #POSITION#
 * </pre>
 *
 * <p>A pass has two phases, the check of the shard cursors and then the pruning, each a parallel scan of the table in
 * {@link #SEGMENTS} segments. While a pass is in progress, {@link #PHASE} names its phase and {@link #POSITIONS}
 * holds, per segment of that phase (by its number, {@code "0"}, {@code "1"}, ...), where it stands: the key of the
 * last item it has done ({@link #NEXT_PK}, {@link #NEXT_SK}) or {@link #DONE}; a segment not in it has not begun.
 */
public final class PrunerPositionItem {
    public static final EntityType TYPE = EntityType.derivedType("PrunerPosition");
    public static final Key KEY = new Key("PRUNER#WATERMARKS", "#POSITION#");

    /** The phase of the pass in progress, {@code check} or {@code prune} (absent: no pass is in progress). */
    public static final String PHASE = "phase";
    /** The number of segments of the pass in progress: it keeps it to its end. */
    public static final String SEGMENTS = "segments";
    /** Per segment of the phase in progress, where it stands (a map of maps, keyed by the segment's number). */
    public static final String POSITIONS = "positions";
    /**
     * In a segment's position, the key of the last item the segment has done. At the top level of the item, where the
     * pruner stood before its scan had segments: such a pass is not continued, and a new pass removes them.
     */
    public static final String NEXT_PK = "afterPk";
    public static final String NEXT_SK = "afterSk";
    /** In a segment's position: the segment has reached its end (true). */
    public static final String DONE = "done";
    /** When the pass in progress, or the last one, began (ISO-8601). */
    public static final String PASS_STARTED = "passStarted";
    /** When the last pass completed (ISO-8601). */
    public static final String PASS_COMPLETED = "passCompleted";
    /**
     * Set when a pass completes: every cursor it found is in the cursor registry ({@code ShardCursorItem}), so later
     * passes check the cursors with Queries of the registry instead of a scan of the table.
     */
    public static final String CURSORS_REGISTERED = "cursorsRegistered";
    /**
     * Set while a pass has met a recent cursor of a shard the listing does not hold that has no registry entry: the
     * pass does not set {@link #CURSORS_REGISTERED} when it completes, so the next pass checks with a scan.
     */
    public static final String CURSORS_UNREGISTERED = "cursorsUnregistered";

    private PrunerPositionItem() {
    }
}
