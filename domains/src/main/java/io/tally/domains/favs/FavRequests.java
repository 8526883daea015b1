package io.tally.domains.favs;

import io.tally.core.Items;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge;
import io.tally.core.read.SharedReads;
import io.tally.core.store.Requests;
import io.tally.core.users.Users;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Pure builders of the requests of favourites and their tag links (functions 1 to 4 and 7 to 10 of seed 004), and the
 * positions of the merged list of all types; tested by comparing the requests they build.
 */
final class FavRequests {
    /** Positions of the actions of {@link #create}. */
    static final int CREATE_USER = 0;
    static final int CREATE_FAVOURITE = 1;
    /** Positions of the actions of {@link #link}. */
    static final int LINK_FAVOURITE = 0;
    static final int LINK_TAG = 1;
    static final int LINK_PUT = 2;
    static final int LINK_QUOTA = 3;

    /** The table key, which a link list's cursor consists of. */
    static final Set<String> TABLE_KEY = Set.of(TableSchema.PK, TableSchema.SK);
    static final Set<String> BY_TYPE_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, TableSchema.FAV_TYPE_KEY, TableSchema.CLIPPED_KEY);
    static final Set<String> BY_TAG_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, TableSchema.LINK_TAG_KEY, TableSchema.CLIPPED_KEY);
    static final Set<String> BY_TAG_TYPE_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, TableSchema.LINK_TAG_TYPE_KEY, TableSchema.CLIPPED_KEY);
    static final Set<String> SEARCH_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, TableSchema.SEARCH_KEY, TableSchema.CLIPPED_KEY);

    /** All types, newest first: the type partitions of FavouritesByType merged by clip time, then id, descending. */
    static final ShardMerge<Map<String, AttributeValue>> ALL_TYPES = new ShardMerge<>(FavRequests::position,
            Comparator.comparing(Position::sort).thenComparing(Position::id).reversed());

    private FavRequests() {
    }

    /** Writes the favourite if its user exists and its id is new for the user. */
    static TransactWriteItemsRequest create(String table, Favourite favourite) {
        return TransactWriteItemsRequest.builder().transactItems(
                Requests.existsAction(table, Users.key(favourite.userId())),
                Requests.putNewAction(table, favourite.toItem()))
                .build();
    }

    static GetItemRequest get(String table, String userId, String favouriteId) {
        return Requests.consistentGet(table, FavKeys.favourite(userId, favouriteId));
    }

    /** Un-collects: deletes the favourite if it is there, returning it. Its links are the stream processor's. */
    static DeleteItemRequest delete(String table, String userId, String favouriteId) {
        return Requests.deleteExisting(table, FavKeys.favourite(userId, favouriteId));
    }

    /** Function 4: one page of the user's favourites of one type, newest first; one item more than the page. */
    static QueryRequest byType(String table, String userId, FavouriteType type, int limit,
                               Map<String, AttributeValue> start) {
        return newestFirst(table, TableSchema.FAVOURITES_BY_TYPE_INDEX, TableSchema.FAV_TYPE_KEY,
                FavKeys.byType(userId, type), limit, start);
    }

    /** Function 8: one page of the favourites under a tag, newest first. */
    static QueryRequest byTag(String table, String userId, String tagId, int limit, Map<String, AttributeValue> start) {
        return newestFirst(table, TableSchema.LINKS_BY_TAG_INDEX, TableSchema.LINK_TAG_KEY,
                FavKeys.byTag(userId, tagId), limit, start);
    }

    /** Function 9: one page of the favourites of one type under a tag, newest first. */
    static QueryRequest byTagAndType(String table, String userId, String tagId, FavouriteType type, int limit,
                                     Map<String, AttributeValue> start) {
        return newestFirst(table, TableSchema.LINKS_BY_TAG_TYPE_INDEX, TableSchema.LINK_TAG_TYPE_KEY,
                FavKeys.byTagAndType(userId, tagId, type), limit, start);
    }

    /** Function 3, one shard of the merge: the type {@code shard} (in declaration order) after a position. */
    static QueryRequest allTypesShard(String table, String userId, int shard, int limit, Position after) {
        FavouriteType type = FavouriteType.values()[shard];
        Map<String, AttributeValue> start = null;
        if (after != null) {
            start = new HashMap<>(FavKeys.favourite(userId, after.id()).toAttributeMap());
            start.put(TableSchema.FAV_TYPE_KEY, AttributeValue.fromS(FavKeys.byType(userId, type)));
            start.put(TableSchema.CLIPPED_KEY,
                    AttributeValue.fromS(FavKeys.clipped(Timestamps.parse(after.sort()), after.id())));
        }
        return byType(table, userId, type, limit, start);
    }

    /** Where a favourite (or a {@code LastEvaluatedKey} of FavouritesByType) sits: its clip time and its id. */
    static Position position(Map<String, AttributeValue> item) {
        String clipped = Items.string(item, TableSchema.CLIPPED_KEY);
        int hash = clipped.indexOf('#');
        if (hash < 0) {
            throw new MalformedItemException("clippedKey '" + clipped + "' is not <clippedAt>#<favouriteId>");
        }
        return new Position(clipped.substring(0, hash), clipped.substring(hash + 1));
    }

    /** A position from a cursor must be one {@link #position} could have produced. */
    static boolean isValidPosition(Position position) {
        return DerivedReads.isTimeAndId(position);
    }

    /**
     * Function 10: one page of the search partition of the query's chosen word ({@link SearchTerms#pick}), filtered
     * on the entries' word lists: every word whole, the last as a prefix. Limit counts the items read before the
     * filter, so the store reads on until the page is full or the partition ends.
     */
    static QueryRequest search(String table, String userId, List<String> words, int limit,
                               Map<String, AttributeValue> start) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        names.put("#partition", TableSchema.SEARCH_KEY);
        names.put("#words", Favs.SEARCH_WORDS);
        values.put(":partition", AttributeValue.fromS(
                FavKeys.searchPartition(userId, SearchTerms.term(SearchTerms.pick(words)))));
        StringBuilder filter = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            boolean last = i == words.size() - 1;
            values.put(":w" + i, AttributeValue.fromS(" " + words.get(i) + (last ? "" : " ")));
            filter.append(i == 0 ? "" : " AND ").append("contains(#words, :w").append(i).append(')');
        }
        return QueryRequest.builder()
                .tableName(table)
                .indexName(TableSchema.FAVOURITE_SEARCH_INDEX)
                .keyConditionExpression("#partition = :partition")
                .filterExpression(filter.toString())
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .scanIndexForward(false)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * Function 7: tags a favourite if, at that instant, the favourite and the tag read are still there (their
     * incarnations), unless the link is there already, joining them (then nothing is written: a 200). A link left by
     * an earlier favourite or tag of the same ids is replaced; and while the favourite's link quota is as it was
     * counted ({@code quota}, {@link FavQuota#claim}).
     */
    static TransactWriteItemsRequest link(String table, FavouriteTag link, TransactWriteItem quota) {
        Favourite favourite = link.favourite();
        return TransactWriteItemsRequest.builder().transactItems(
                Requests.incarnationAction(table, favourite.key(), Favourite.INCARNATION, favourite.incarnation()),
                Requests.incarnationAction(table, FavKeys.tag(favourite.userId(), link.tagId()), Tag.INCARNATION,
                        link.tagIncarnation()),
                TransactWriteItem.builder().put(Put.builder()
                        .tableName(table)
                        .item(link.toItem())
                        .conditionExpression("attribute_not_exists(pk) OR #f <> :f OR #t <> :t")
                        .expressionAttributeNames(Map.of("#f", FavouriteTag.FAVOURITE_INCARNATION,
                                "#t", FavouriteTag.TAG_INCARNATION))
                        .expressionAttributeValues(Map.of(":f", AttributeValue.fromS(favourite.incarnation()),
                                ":t", AttributeValue.fromS(link.tagIncarnation())))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build()).build(),
                quota)
                .build();
    }

    static DeleteItemRequest unlink(String table, String userId, String favouriteId, String tagId) {
        return Requests.deleteExisting(table, FavKeys.link(userId, favouriteId, tagId));
    }

    /** One page of a favourite's links, by tag id (a consistent read of its partition). */
    static QueryRequest links(String table, String userId, String favouriteId, int limit,
                              Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                // The links only: the partition also holds the favourite's link quota.
                .keyConditionExpression("pk = :pk AND begins_with(sk, :tag)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(FavKeys.linksPk(userId, favouriteId)),
                        ":tag", AttributeValue.fromS(FavKeys.TAG_PREFIX)))
                .consistentRead(true)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }

    /** The tags of these ids (at most 100), read consistently. */
    static BatchGetItemRequest tags(String table, String userId, List<String> tagIds) {
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(tagIds.stream().map(tagId -> FavKeys.tag(userId, tagId).toAttributeMap()).toList())
                        .consistentRead(true)
                        .build()))
                .build();
    }

    /**
     * The first page of the user's favourite stats, whole (a shared item: its base item and per-shard partials), every
     * attribute: its per-type and per-tag counters are named at run time.
     */
    static QueryRequest stats(String table, String userId) {
        return SharedReads.query(table, FavKeys.favouriteStats(userId), null, null);
    }

    /** Whether the user exists (only its key is read). */
    static GetItemRequest user(String table, String userId) {
        return DerivedReads.exists(table, Users.key(userId));
    }



    private static QueryRequest newestFirst(String table, String index, String hashAttribute, String partition,
                                            int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(index)
                .keyConditionExpression("#partition = :partition")
                .expressionAttributeNames(Map.of("#partition", hashAttribute))
                .expressionAttributeValues(Map.of(":partition", AttributeValue.fromS(partition)))
                .scanIndexForward(false)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }
}
