package io.tally.core;

/**
 * The keys of the per-lineage partials of shared derived items ({@link DerivedType#isShared}): a partial sits beside its
 * base item, in the same partition, under the base item's sort key followed by {@link #MARK} and the token
 * ({@link ShardToken}) of the first shard of the lineage that writes it (a chain of shards, each continuing its
 * parent's partition), e.g. {@code USER#u1 / #STATS#~p~k5sxg2lom4qgs3tf}. Pure.
 */
public final class PartialKeys {
    /**
     * What separates a shared item's sort key from the token of the shard whose partial it is: {@code #STATS#} and
     * {@code #STATS#~p~k5sxg2lom4qgs3tf}. A base item's sort key may hold it too (a tag's name is free text), so the
     * mark alone does not make a partial: code that acts on partials also checks the item's type is shared, the token's
     * form, and the watermarks on it (the pruner's fold).
     */
    public static final String MARK = "~p~";

    /**
     * An upper bound, for a range of sort keys, that takes in the partials of the item with this sort key: every
     * partial's sort key lies between {@code sk} and it.
     */
    public static String partialsUpTo(String sk) {
        return sk + MARK + "~";
    }

    /** Whether the key is that of a partial of a shared item (of any type). */
    public static boolean isPartial(Key key) {
        return key.sk().contains(MARK);
    }

    /** The base item of a partial ({@link #partial}); any other key as it is. */
    public static Key baseOf(Key key) {
        String sk = baseSortKey(key.sk());
        return sk.equals(key.sk()) ? key : new Key(key.pk(), sk);
    }

    /** The sort key of the base item of a partial whose sort key this is; any other sort key as it is. */
    public static String baseSortKey(String sk) {
        int mark = sk.indexOf(MARK);
        return mark < 0 ? sk : sk.substring(0, mark);
    }

    /** The token of the lineage a partial belongs to, or null for a key that is not a partial's. */
    public static String partialToken(Key key) {
        int mark = key.sk().indexOf(MARK);
        return mark < 0 ? null : key.sk().substring(mark + MARK.length());
    }

    private PartialKeys() {
    }

    /** The partial of the lineage whose token is given, of the item {@code base}. */
    static Key partial(Key base, String shardToken) {
        if (shardToken.isEmpty() || shardToken.contains(MARK)) {
            throw new IllegalArgumentException("not a shard token: " + shardToken);
        }
        return new Key(base.pk(), base.sk() + MARK + shardToken);
    }
}
