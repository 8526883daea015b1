package io.tally.core;

/**
 * Attribute and index names of the single table. Key patterns live in {@link Keys}; the table definition in
 * {@link TableDefinition}; every access pattern is documented in {@code docs/table-design.md}.
 */
public final class TableSchema {
    public static final String PK = "pk";
    public static final String SK = "sk";
    public static final String ENTITY_TYPE = "entityType";
    /** TTL attribute (epoch seconds). */
    public static final String TTL = "ttl";

    /** GSI of the learning catalogue: hash {@link #SELECTOR}, range {@link #DATA} (the score). */
    public static final String CYCLE_SELECTOR_INDEX = "CycleSelector";
    public static final String SELECTOR = "selector";
    public static final String DATA = "data";

    /**
     * Sparse LSI over a user's partition ordering the user's posts by creation time. Post ids may be chosen by
     * the client, so the base sort key {@code POST#<postId>#<timestamp>} orders by id, not by time.
     */
    public static final String POSTS_BY_TIME_INDEX = "PostsByTime";
    public static final String POSTED_AT = "postedAt";

    private TableSchema() {
    }
}
