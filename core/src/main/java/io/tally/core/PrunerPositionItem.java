package io.tally.core;

/**
 * Where the watermark pruner's pass over the table stands, so that a pass too long for one run continues in the next
 * ({@code docs/exactly-once.md}, "Watermark growth"). Bookkeeping, not derived data: the rebuild neither computes
 * nor compares it.
 *
 * <pre>
 * PrunerPosition  PRUNER#WATERMARKS                  #POSITION#
 * </pre>
 */
public final class PrunerPositionItem {
    public static final EntityType TYPE = EntityType.derivedType("PrunerPosition");
    public static final Key KEY = new Key("PRUNER#WATERMARKS", "#POSITION#");

    /** The key of the last item the pass has done (absent: the pass has not begun, or is complete). */
    public static final String NEXT_PK = "afterPk";
    public static final String NEXT_SK = "afterSk";
    /** When the pass in progress, or the last one, began (ISO-8601). */
    public static final String PASS_STARTED = "passStarted";
    /** When the last pass completed (ISO-8601). */
    public static final String PASS_COMPLETED = "passCompleted";

    private PrunerPositionItem() {
    }
}
