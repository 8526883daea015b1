package io.tally.domains.favs;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.Requests;
import io.tally.core.store.Transaction;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DOMAIN.md's limits on what a user adds, so that no derived item grows without bound: at most {@link #TAGS} tags per
 * user, at most {@link #LINKS} tag links per favourite. The next one is a 409 naming the limit.
 *
 * <p>Each limit has a quota item in the partition it counts: a version, which the write that adds an item moves in
 * its own transaction on the condition that it is still what was read before counting. Two requests that count at
 * once cannot both add the last one: the second's transaction fails its condition, and it counts again. Removals do
 * not take part (they only make room), so a cascade removing links, or a tag's delete, needs no change.
 *
 * @param key       the quota item
 * @param counted   the items counted, read consistently (a COUNT query of their partition)
 * @param limit     how many the partition may hold
 * @param owner     for the error: what holds them ("user 'u1'")
 * @param what      for the error: what they are ("tags")
 * @param extra     attributes of the quota item besides its version (a link quota carries the favourite's
 *                  incarnation, so that the un-collect cascade removes it with the links)
 */
record FavQuota(Key key, Query counted, int limit, String owner, String what, Map<String, AttributeValue> extra) {
    public static final int TAGS = 1_000;
    public static final int LINKS = 50;
    static final String QUOTA_SK = "#QUOTA#";
    static final String VERSION = "quotaVersion";

    /** A user's tags: the items of its tag partition whose sort key starts with {@code TAG#}. */
    static FavQuota tags(String userId) {
        return new FavQuota(new Key(FavKeys.tagsPk(userId), QUOTA_SK), tagsIn(FavKeys.tagsPk(userId)), TAGS,
                "user '" + userId + "'", "tags", Map.of());
    }

    /** A favourite's links: those of this incarnation of it (an earlier one's are the cascade's, on their way out). */
    static FavQuota links(Favourite favourite) {
        String pk = FavKeys.linksPk(favourite.userId(), favourite.favouriteId());
        return new FavQuota(new Key(pk, QUOTA_SK), tagsIn(pk).filter(Condition.is(FavouriteTag.FAVOURITE_INCARNATION,
                favourite.incarnation())), LINKS, "favourite '" + favourite.favouriteId() + "'", "tag links",
                Map.of(FavouriteTag.FAVOURITE_INCARNATION, AttributeValue.fromS(favourite.incarnation())));
    }

    /**
     * Counts what the partition holds and adds to the transaction the action that claims a place, conditioned on the
     * quota's version as read before the count; its refusal means another request added one meanwhile.
     *
     * @throws ApiException {@code conflict} when the partition is full
     */
    Transaction.Action<?> claim(DynamoDbClient dynamo, String table, Transaction write) {
        return claim(dynamo, table, write, true);
    }

    /**
     * The claim of a write that replaces one of the counted items (a link of the favourite's incarnation to an earlier
     * incarnation of the tag, whose cascade has not run yet): it adds nothing, so the limit is not checked, but the
     * version still moves, so that a concurrent addition counts again.
     */
    Transaction.Action<?> claimReplacing(DynamoDbClient dynamo, String table, Transaction write) {
        return claim(dynamo, table, write, false);
    }

    private Transaction.Action<?> claim(DynamoDbClient dynamo, String table, Transaction write, boolean adds) {
        Map<String, AttributeValue> quota = dynamo.getItem(Requests.consistentGet(table, key)).item();
        AttributeValue version = quota == null ? null : quota.get(VERSION);
        if (adds) {
            int held = 0;
            for (var page : dynamo.queryPaginator(counted.countRequest(table, null))) {
                held += page.count();
            }
            if (held >= limit) {
                throw ApiException.conflict(owner + " already has " + held + " " + what + ": the limit is " + limit);
            }
        }
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.putAll(extra);
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(Favs.QUOTA.attributeValue()));
        long next = version == null ? 1 : Long.parseLong(version.n()) + 1;
        item.put(VERSION, AttributeValue.fromN(Long.toString(next)));
        return write.put(item, version == null ? Condition.lacks(VERSION) : Condition.is(VERSION, version));
    }

    /** The partition's items whose sort key starts with {@code TAG#}. */
    private static Query tagsIn(String pk) {
        return Query.partition(pk).startsWith(FavKeys.TAG_PREFIX);
    }
}
