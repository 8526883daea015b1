package io.tally.core;

/**
 * The stream processor's shared copy of a stream's shard listing ({@code DescribeStream}), so that a cold execution
 * environment checks the shard ids it is delivered against one item instead of listing the stream itself: at 1,000
 * shards a listing is about 70 {@code DescribeStream} pages, against an account limit of 10 calls a second, and a deploy
 * starts hundreds of environments. Bookkeeping, not derived data: the rebuild neither computes nor compares it.
 *
 * <pre>
 * StreamListing   STREAMLISTING#&lt;stream token&gt;     #LISTING#
 * </pre>
 *
 * <p>The shards are held by their tokens ({@link ShardToken}, 16 characters): the listing of a table of 1,000
 * partitions over the stream's 24 hours, about 8,000 shards, takes about 140 KB, and the sole parents of its open
 * shards ({@link #SOLE_PARENTS}) about 60 KB more.
 */
public final class StreamListingItem {
    public static final EntityType TYPE = EntityType.derivedType("StreamListing");
    public static final String PREFIX = "STREAMLISTING#";
    public static final String SORT_KEY = "#LISTING#";

    /** The stream's ARN. */
    public static final String STREAM_ARN = "streamArn";
    /** The tokens of the shards the listing held (a string set). */
    public static final String SHARDS = "shards";
    /**
     * By token of a shard, its parent's shard id, for the open shards that are their parent's only child (a rollover,
     * not a split): such a shard continues its parent's lineage (the stream processor's cursors). A map; absent when
     * there are none. At 1,000 partitions about 1,000 entries of about 60 bytes.
     */
    public static final String SOLE_PARENTS = "soleParents";
    /** When the stream was listed (ISO-8601). */
    public static final String LISTED_AT = "listedAt";

    private StreamListingItem() {
    }

    /** The item of a stream's listing. */
    public static Key key(String streamArn) {
        return new Key(PREFIX + ShardToken.of(streamArn), SORT_KEY);
    }
}
