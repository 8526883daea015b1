package io.tally.domains.favs;

import io.tally.core.derive.ConditionalRemovals;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Pure builders of the link cascades' reads; tested by comparing the requests they build. Every read is strongly
 * consistent: a link a read missed would outlive its favourite or tag for good.
 */
final class LinkCascadeRequests {
    private LinkCascadeRequests() {
    }

    /** One page of a favourite's link partition, whatever incarnation the links were added to. */
    static QueryRequest favouriteLinks(String table, FavouriteLinks cascade, Map<String, AttributeValue> start) {
        return ConditionalRemovals.partitionPage(table, FavKeys.linksPk(cascade.userId(), cascade.favouriteId()),
                "pk, sk, " + FavouriteTag.FAVOURITE_INCARNATION, start);
    }

    /**
     * One page of the user's favourites. The LinksByTag index would name the tag's links in one query, but it is
     * eventually consistent: a link added just before the tag was deleted may not be in it yet. Every link of the tag
     * lies in the link partition of a favourite that exists, or of one that was un-collected, whose own cascade
     * removes it.
     */
    static QueryRequest favourites(String table, TagLinks cascade, Map<String, AttributeValue> start) {
        return ConditionalRemovals.prefixPage(table, FavKeys.favouritesPk(cascade.userId()), FavKeys.FAV_PREFIX,
                Favourite.FAVOURITE_ID, start);
    }

    /** The tag's possible links on these favourites (at most {@value ConditionalRemovals#BATCH_KEYS}). */
    static BatchGetItemRequest tagLinks(String table, TagLinks cascade, List<String> favouriteIds) {
        return ConditionalRemovals.batchGet(table, favouriteIds.stream()
                .map(favouriteId -> FavKeys.link(cascade.userId(), favouriteId, cascade.tagId())).toList(),
                "pk, sk, " + FavouriteTag.TAG_INCARNATION);
    }
}
