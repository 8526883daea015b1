package io.tally.core;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The stream processor's bookkeeping for one stream shard: which invocation holds the shard, the record the shard
 * must be retried from after a failure, and what the shard gave up on (derived items, an outage of the event bus). Not
 * derived data: the rebuild neither computes nor compares it.
 *
 * <p>Each cursor is also entered in a registry of known partitions, {@code CURSORS#<the token's first character>}
 * (32 of them), so that the watermark pruner finds every cursor with a Query of each instead of a scan of the table;
 * an entry is written once in a shard's life, when a claim finds its cursor not yet {@link #REGISTERED}.
 *
 * <pre>
 * ShardCursor     SHARD#&lt;shard token&gt;                 #CURSOR#
 * ShardCursor     CURSORS#&lt;token's first character&gt;   CURSOR#&lt;shard token&gt;   (registry entry)
 * </pre>
 */
public final class ShardCursorItem {
    public static final EntityType TYPE = EntityType.derivedType("ShardCursor");
    public static final String PREFIX = "SHARD#";
    public static final String SORT_KEY = "#CURSOR#";

    /** The shard id, as delivered. */
    public static final String SHARD_ID = "shardId";
    /** The lowest record (zero-padded sequence) that may not be applied: set by a failed batch, cleared once applied. */
    public static final String PENDING = "pending";
    /** Batches in a row that failed at {@link #PENDING}. */
    public static final String ATTEMPTS = "attempts";
    /** When a batch first failed at {@link #PENDING} (ISO-8601). */
    public static final String PENDING_SINCE = "pendingSince";
    /** The invocation holding the shard, until when (epoch milliseconds), and the first record of its batch. */
    public static final String HOLDER = "holder";
    public static final String LEASE_UNTIL = "leaseUntil";
    public static final String CLAIMED_FROM = "claimedFrom";
    /**
     * A claim to be handed over to the shard's next invocation through the tumbling window's state instead of released
     * (see the stream processor's {@code ShardCursors.Chain}): the last record of its batch, past which an invocation
     * without that state takes the shard over once the claim's lease lapsed. Absent on a claim that is released.
     */
    public static final String CLAIMED_TO = "claimedTo";
    /** Every record up to this one (zero-padded sequence) is applied: where the shard stands. */
    public static final String ACKNOWLEDGED = "acknowledged";
    /**
     * The derived items the shard gave up writing because DynamoDB refused them for good, so that their next refused
     * write is filed at once: a map from a hash of the item's key (the one in its dead letters' sort key) to when it
     * was last refused (epoch milliseconds), the 20 most recent at most. Absent when there are none.
     */
    public static final String REFUSED = "refused";
    /**
     * When the shard gave up on events the event bus failed retryably, taking the bus to be in an outage (ISO-8601),
     * and when it last filed such events as a dead letter ({@link #OUTAGE_LAST_FILED}): until a give-up period has
     * passed since then, or the bus takes one of the shard's events, the shard files the events that fail retryably at
     * once. Absent when there is no outage.
     */
    public static final String OUTAGE_SINCE = "outageSince";
    public static final String OUTAGE_LAST_FILED = "outageLastFiled";
    /**
     * The shard's lineage: the id of the first shard of the chain of rollovers it continues, under whose token the shard
     * writes its partials of shared items (see the core's {@code Derivations.place}). Settled once, before the shard's
     * first write of a partial, and never changed while the cursor lives: a shard that continues its parent alone (a
     * rollover, not a split) takes the parent's lineage, any other shard its own id. Absent on a cursor written before
     * lineages, whose shard wrote its partials under its own id.
     */
    public static final String LINEAGE = "lineage";
    /** When the cursor last changed (ISO-8601). */
    public static final String UPDATED_AT = "updatedAt";

    /** Set on a cursor once its registry entry is written. */
    public static final String REGISTERED = "registered";
    public static final String REGISTRY_PREFIX = "CURSORS#";
    public static final String REGISTRY_SORT_PREFIX = "CURSOR#";
    /** The characters a shard token is made of (lowercase base32): one registry partition each. */
    private static final String TOKEN_CHARACTERS = "abcdefghijklmnopqrstuvwxyz234567";

    private ShardCursorItem() {
    }

    /** The registry entry of the cursor of the shard with this token. */
    public static Key registryKey(String token) {
        return new Key(REGISTRY_PREFIX + token.charAt(0), REGISTRY_SORT_PREFIX + token);
    }

    /** The partition keys of the registry, every one. */
    public static List<String> registryPartitions() {
        return TOKEN_CHARACTERS.chars().mapToObj(c -> REGISTRY_PREFIX + (char) c).toList();
    }

    /** The shard token a registry entry's sort key names. */
    public static String registeredToken(String sortKey) {
        return sortKey.substring(REGISTRY_SORT_PREFIX.length());
    }

    /**
     * The lineage a cursor item records for the shard {@code shardId} ({@link #LINEAGE}); the shard's own id for a
     * cursor written before lineages, which holds a claim or a progress (its shard wrote its partials under its own
     * id); null when there is no cursor, or one that records neither: the lineage is still to be settled.
     */
    public static String lineageOf(String shardId, Map<String, AttributeValue> cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return null;
        }
        AttributeValue lineage = cursor.get(LINEAGE);
        if (lineage != null && lineage.s() != null) {
            return lineage.s();
        }
        boolean written = cursor.containsKey(CLAIMED_FROM) || cursor.containsKey(ACKNOWLEDGED)
                || cursor.containsKey(PENDING);
        return written ? shardId : null;
    }

    /** @param token a short stable id of the shard id (the stream processor's watermark token) */
    public static Key key(String token) {
        return new Key(PREFIX + token, SORT_KEY);
    }
}
