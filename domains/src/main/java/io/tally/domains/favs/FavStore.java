package io.tally.domains.favs;

import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Requests;
import io.tally.core.store.Transactions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Favourites, their links and the domain's read side: where a failed condition becomes the client's answer. */
record FavStore(DynamoDbClient dynamo, String table) {
    /** Queries of one search page at most: a filter that matches little must not read a partition whole. */
    static final int SEARCH_ROUNDS = 10;

    void create(Favourite favourite) {
        try {
            Transactions.write(dynamo, FavRequests.create(table, favourite));
        } catch (TransactionCanceledException e) {
            if (Transactions.conditionFailed(e, FavRequests.CREATE_USER)) {
                throw userNotFound(favourite.userId());
            }
            if (Transactions.conditionFailed(e, FavRequests.CREATE_FAVOURITE)) {
                throw ApiException.conflict("favourite '" + favourite.favouriteId() + "' already exists");
            }
            throw e;
        }
    }

    Favourite get(String userId, String favouriteId) {
        Map<String, AttributeValue> item = dynamo.getItem(FavRequests.get(table, userId, favouriteId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, favouriteId);
        }
        return Favourite.fromItem(item);
    }

    Favourite delete(String userId, String favouriteId) {
        try {
            return Favourite.fromItem(dynamo.deleteItem(FavRequests.delete(table, userId, favouriteId)).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw notFound(userId, favouriteId);
        }
    }

    /** {@code not_found} for a user never written. */
    void requireUser(String userId) {
        if (DerivedReads.found(dynamo.getItem(FavRequests.user(table, userId))) == null) {
            throw userNotFound(userId);
        }
    }

    QueryPage byType(String userId, FavouriteType type, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(FavRequests.byType(table, userId, type, limit, start)), limit,
                FavRequests.BY_TYPE_KEY);
    }

    QueryPage byTag(String userId, String tagId, FavouriteType type, int limit, Map<String, AttributeValue> start) {
        return type == null
                ? QueryPage.of(dynamo.query(FavRequests.byTag(table, userId, tagId, limit, start)), limit,
                        FavRequests.BY_TAG_KEY)
                : QueryPage.of(dynamo.query(FavRequests.byTagAndType(table, userId, tagId, type, limit, start)), limit,
                        FavRequests.BY_TAG_TYPE_KEY);
    }

    /** One page of every type, merged from the type partitions that are not exhausted. */
    MergedPage<Map<String, AttributeValue>> all(String userId, List<Resume> from, int limit) {
        return FavRequests.ALL_TYPES.merge(from, DerivedReads.readShards(dynamo, from,
                (shard, after) -> FavRequests.allTypesShard(table, userId, shard, limit, after),
                FavRequests::position), limit);
    }

    /**
     * One page of the search: read the chosen partition on until one item more than the page has passed the filter,
     * the partition ends, or {@link #SEARCH_ROUNDS} queries are spent (then the page may be short, and the cursor
     * continues where the reading stopped).
     */
    QueryPage search(String userId, List<String> words, int limit, Map<String, AttributeValue> start) {
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        Map<String, AttributeValue> next = start;
        for (int round = 0; round < SEARCH_ROUNDS; round++) {
            QueryResponse response = dynamo.query(FavRequests.search(table, userId, words, limit, next));
            found.addAll(response.items());
            next = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey() : null;
            if (found.size() > limit || next == null) {
                break;
            }
        }
        if (found.size() > limit) {
            return new QueryPage(found.subList(0, limit), QueryPage.keyOf(found.get(limit - 1), FavRequests.SEARCH_KEY));
        }
        return new QueryPage(found, next);
    }

    /** 201 (true) when the link is new, 200 (false) when it was there; the link as stored. */
    record Linked(FavouriteTag link, boolean created) {
    }

    /**
     * Links the favourite and the tag. A link that is there already is a 200 even when the favourite's links are at
     * their limit; a new one past it is a 409 naming the limit. A link added by another request between the count and
     * the write makes the count start again.
     */
    Linked link(String userId, String favouriteId, String tagId, TagStore tags, Instant now) {
        Favourite favourite = get(userId, favouriteId);
        Tag tag = tags.get(userId, tagId);
        FavouriteTag link = new FavouriteTag(favourite, tagId, now, tag.incarnation());
        FavQuota links = FavQuota.links(table, favourite);
        for (int attempt = 1; ; attempt++) {
            TransactWriteItem quota;
            try {
                quota = links.claim(dynamo);
            } catch (ApiException full) {
                Map<String, AttributeValue> existing = dynamo.getItem(Requests.consistentGet(table, link.key())).item();
                FavouriteTag there = existing == null || existing.isEmpty() ? null : FavouriteTag.fromItem(existing);
                if (there != null && there.sameAs(link)) {
                    return new Linked(there, false);
                }
                if (there == null || !there.favourite().incarnation().equals(favourite.incarnation())) {
                    throw full;
                }
                // A link of this favourite to an earlier tag of the same id: the new one replaces it, adding none.
                quota = links.claimReplacing(dynamo);
            }
            try {
                Transactions.write(dynamo, FavRequests.link(table, link, quota));
                return new Linked(link, true);
            } catch (TransactionCanceledException e) {
                if (Transactions.conditionFailed(e, FavRequests.LINK_FAVOURITE)) {
                    throw notFound(userId, favouriteId);
                }
                if (Transactions.conditionFailed(e, FavRequests.LINK_TAG)) {
                    throw TagStore.notFound(userId, tagId);
                }
                Map<String, AttributeValue> existing = Transactions.oldItem(e, FavRequests.LINK_PUT);
                if (Transactions.conditionFailed(e, FavRequests.LINK_PUT) && existing != null) {
                    return new Linked(FavouriteTag.fromItem(existing), false);
                }
                if (!Transactions.conditionFailed(e, FavRequests.LINK_QUOTA)) {
                    throw e;
                }
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("the tags of favourite '" + favouriteId + "' keep changing; retry");
                }
            }
        }
    }

    FavouriteTag unlink(String userId, String favouriteId, String tagId) {
        try {
            return FavouriteTag.fromItem(
                    dynamo.deleteItem(FavRequests.unlink(table, userId, favouriteId, tagId)).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.notFound("favourite '" + favouriteId + "' of user '" + userId + "' has no tag '"
                    + tagId + "'");
        }
    }

    /**
     * One page of the favourite's tags (their items, where the next page of links starts), in tag id order; a tag
     * deleted but not yet unlinked is left out.
     */
    QueryPage tags(String userId, String favouriteId, int limit, Map<String, AttributeValue> start) {
        get(userId, favouriteId);
        QueryPage links = QueryPage.of(dynamo.query(FavRequests.links(table, userId, favouriteId, limit, start)), limit,
                FavRequests.TABLE_KEY);
        List<String> tagIds = links.items().stream().map(item -> FavouriteTag.fromItem(item).tagId()).toList();
        Map<String, Map<String, AttributeValue>> byId = new HashMap<>();
        if (!tagIds.isEmpty()) {
            BatchReads.getAll(dynamo, table, FavRequests.tags(table, userId, tagIds))
                    .forEach(item -> byId.put(Tag.fromItem(item).tagId(), item));
        }
        return new QueryPage(tagIds.stream().filter(byId::containsKey).map(byId::get).toList(), links.nextKey());
    }

    static ApiException userNotFound(String userId) {
        return ApiException.notFound("user '" + userId + "' does not exist");
    }

    static ApiException notFound(String userId, String favouriteId) {
        return ApiException.notFound("user '" + userId + "' has no favourite '" + favouriteId + "'");
    }
}
