package io.tally.core;

/**
 * Attribute and index names of the single table. Key patterns live with each domain (its {@code *Keys} class, e.g.
 * {@code BlogKeys}) and each derived type's declaration ({@link DerivedType#keyPattern}); the table definition in
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

    /**
     * GSI of the status index: post projections in status partitions sharded over K keys
     * ({@code POSTS#<status>#<shard>}), ranged by {@link #STATUS_POSTED_AT} so that a partition reads newest first.
     */
    public static final String POSTS_BY_STATUS_INDEX = "PostsByStatus";
    public static final String STATUS_SHARD = "statusShard";
    /**
     * The projection's range key in {@link #POSTS_BY_STATUS_INDEX}, {@code <createdAt>#<postId>} like
     * {@link #POSTED_AT}, under a name of its own: a projection carrying {@code postedAt} would also be an entry of
     * the {@link #POSTS_BY_TIME_INDEX} LSI, which no query reads, and every projection write would pay a write unit
     * for it.
     */
    public static final String STATUS_POSTED_AT = "statusPostedAt";

    /**
     * Sparse GSI of seed 002, the reverse lookup: hash {@link #LOOKUP_KEY}, a copy of the sort key carried only by
     * teams, employees and memberships (the seed indexes the sort key itself, which would put every item of the
     * table in the index); range {@link #PK}. It answers "team by id", "employee by id" and "teams of an employee".
     */
    public static final String REVERSE_LOOKUP_INDEX = "ReverseLookup";
    public static final String LOOKUP_KEY = "lookupKey";

    /**
     * Seed 004's three LSIs over a user's tag partition ({@code TAGS#<userId>}): tags by name ignoring case, by
     * creation and by last access. Sparse: only tags carry the range keys, so the name reservations in the same
     * partition and the rest of the table pay nothing.
     */
    public static final String TAGS_BY_NAME_INDEX = "TagsByName";
    public static final String TAG_NAME_KEY = "tagNameKey";
    public static final String TAGS_BY_CREATION_INDEX = "TagsByCreation";
    public static final String TAG_CREATED_KEY = "tagCreatedKey";
    public static final String TAGS_BY_ACCESS_INDEX = "TagsByAccess";
    public static final String TAG_ACCESSED_KEY = "tagAccessedKey";

    /**
     * The range key of the favourites indexes: {@code <clippedAt>#<favouriteId>}, so that each lists newest first. It
     * is carried by favourites, links and live search entries, which each carry the hash key of their own indexes only.
     */
    public static final String CLIPPED_KEY = "clippedKey";
    /** Seed 004's GSI of favourites by user and type: hash {@link #FAV_TYPE_KEY} ({@code <userId>#<type>}). */
    public static final String FAVOURITES_BY_TYPE_INDEX = "FavouritesByType";
    public static final String FAV_TYPE_KEY = "favTypeKey";
    /** Seed 004's GSI of links by tag: hash {@link #LINK_TAG_KEY} ({@code <userId>#<tagId>}). */
    public static final String LINKS_BY_TAG_INDEX = "LinksByTag";
    public static final String LINK_TAG_KEY = "linkTagKey";
    /** Seed 004's GSI of links by tag and type: hash {@link #LINK_TAG_TYPE_KEY} ({@code <userId>#<tagId>#<type>}). */
    public static final String LINKS_BY_TAG_TYPE_INDEX = "LinksByTagType";
    public static final String LINK_TAG_TYPE_KEY = "linkTagTypeKey";
    /**
     * The search projection's GSI: hash {@link #SEARCH_KEY} ({@code <userId>#<term>}), a document field of the entries
     * the stream processor writes, removed with the document, so that the index holds exactly the live entries.
     */
    public static final String FAVOURITE_SEARCH_INDEX = "FavouriteSearch";
    public static final String SEARCH_KEY = "searchKey";

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
