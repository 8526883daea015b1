package io.tally.stream.favs;

import io.tally.core.favs.FavKeys;
import io.tally.core.favs.Favourite;
import io.tally.core.favs.FavouriteTag;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
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
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk",
                        AttributeValue.fromS(FavKeys.linksPk(cascade.userId(), cascade.favouriteId()))))
                .projectionExpression("pk, sk, " + FavouriteTag.FAVOURITE_INCARNATION)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * One page of the user's favourites. The LinksByTag index would name the tag's links in one query, but it is
     * eventually consistent: a link added just before the tag was deleted may not be in it yet. Every link of the tag
     * lies in the link partition of a favourite that exists, or of one that was un-collected, whose own cascade
     * removes it.
     */
    static QueryRequest favourites(String table, TagLinks cascade, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :favs)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS(FavKeys.favouritesPk(cascade.userId())),
                        ":favs", AttributeValue.fromS(FavKeys.FAV_PREFIX)))
                .projectionExpression(Favourite.FAVOURITE_ID)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /** The tag's possible links on these favourites (at most 100). */
    static BatchGetItemRequest tagLinks(String table, TagLinks cascade, List<String> favouriteIds) {
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(favouriteIds.stream().map(favouriteId ->
                                FavKeys.link(cascade.userId(), favouriteId, cascade.tagId()).toAttributeMap()).toList())
                        .projectionExpression("pk, sk, " + FavouriteTag.TAG_INCARNATION)
                        .consistentRead(true)
                        .build()))
                .build();
    }
}
