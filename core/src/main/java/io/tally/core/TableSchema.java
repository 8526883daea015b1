package io.tally.core;


/**
 * Attribute names of the single table that Tally itself reads, and its index of ranked lists. A domain's key patterns
 * and indexes live with the domain (its {@code *Keys} class, e.g. {@code BlogKeys}, and its declaration's
 * {@code indexes}) and each derived type's declaration ({@link DerivedType#keyPattern}); the table definition in
 * {@link TableDefinition}; every access pattern is documented in {@code docs/table-design.md}.
 */
public final class TableSchema {
    public static final String PK = "pk";
    public static final String SK = "sk";
    public static final String ENTITY_TYPE = "entityType";
    /** TTL attribute (epoch seconds). */
    public static final String TTL = "ttl";

    /**
     * Tally's index of ranked lists ({@code UsersDomain.RANKINGS_INDEX}): hash {@link #SELECTOR} (a list and shard),
     * range {@link #DATA} (the score, the count). Each domain's indexes are its own, declared with it.
     */
    public static final String CYCLE_SELECTOR_INDEX = "CycleSelector";
    public static final String SELECTOR = "selector";
    public static final String DATA = "data";

    /**
     * On every derived item: per stream shard, the sequence number (zero-padded) up to which that shard's
     * records have been applied to the item. See {@code docs/exactly-once.md}.
     */
    public static final String WATERMARKS = "wm";

    /**
     * On a derived item that holds a document: the revision of the source state that document was written from
     * (twice the source item's revision, plus one for the removal of a source that no longer exists). A document
     * write only lands if its revision is at least this one, so records of an item delivered by different stream
     * shards in any order leave its newest state. See {@code docs/exactly-once.md}, "Document revisions".
     */
    public static final String SOURCE_REVISION = "srcRev";

    /**
     * On every derived item the stream processor has written: how many writes it has taken (each adds one). A repair
     * reads the item, checks its watermarks against the stream position it recomputed at, and replaces it on the
     * condition that this is still what it read: one condition, whatever the number of shards, where a guard per
     * shard would pass DynamoDB's expression limits. See {@code docs/exactly-once.md}, "Repair and backfill".
     */
    public static final String WRITE_VERSION = "wv";

    private TableSchema() {
    }
}
