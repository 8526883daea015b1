package io.tally.stream.engine;

import io.tally.core.ShardToken;
import io.tally.core.TableSchema;

/**
 * Names of the per-shard watermark attributes of derived items: {@code wm_<token>}, where the token is a short,
 * stable id of the stream shard. A shard id is up to 65 characters; one attribute per shard that ever wrote an
 * item, so the name is kept short, and it must be a legal, stable attribute name in every JVM and every run.
 */
public final class Watermarks {
    /** Every watermark attribute starts with this prefix; no derived counter or document may. */
    public static final String PREFIX = TableSchema.WATERMARKS + "_";

    private Watermarks() {
    }

    /** The watermark attribute of a shard, e.g. {@code wm_k5sxg2lom4qgs3tf}. */
    public static String attributeName(String shardId) {
        return PREFIX + token(shardId);
    }

    public static boolean isWatermark(String attributeName) {
        return attributeName.startsWith(PREFIX);
    }

    /** The shard's token ({@link ShardToken#of}). */
    public static String token(String shardId) {
        return ShardToken.of(shardId);
    }
}
