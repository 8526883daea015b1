package io.tally.domains.favs;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.ChangedMeanwhile;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transaction;
import io.tally.core.store.Transactions;
import io.tally.core.store.TypedTable;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Favourites and their tag links (functions 1 to 4 and 7 to 10 of seed 004) and the domain's read side, and the
 * client's answer to each refused write.
 */
final class FavStore {
    /** Queries of one search page at most: a filter that matches little must not read a partition whole. */
    static final int SEARCH_ROUNDS = 10;
    /** The table key, which a link list's cursor consists of. */
    static final Set<String> TABLE_KEY = Set.of(TableSchema.PK, TableSchema.SK);
    static final Set<String> BY_TYPE_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, FavKeys.FAV_TYPE_KEY, FavKeys.CLIPPED_KEY);
    static final Set<String> BY_TAG_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, FavKeys.LINK_TAG_KEY, FavKeys.CLIPPED_KEY);
    static final Set<String> BY_TAG_TYPE_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, FavKeys.LINK_TAG_TYPE_KEY, FavKeys.CLIPPED_KEY);
    static final Set<String> SEARCH_KEY =
            Set.of(TableSchema.PK, TableSchema.SK, FavKeys.SEARCH_KEY, FavKeys.CLIPPED_KEY);

    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Favourite> favourites;
    private final TypedTable<FavouriteTag> links;

    FavStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.favourites = TypedTable.of(dynamo, table, Favourite.SCHEMA);
        this.links = TypedTable.of(dynamo, table, FavouriteTag.SCHEMA);
    }

    Favourite get(String userId, String favouriteId) {
        return favourites.get(FavKeys.favourite(userId, favouriteId)).orElseThrow(() -> notFound(userId, favouriteId));
    }

    /** {@code not_found} for a user never written (only its key is read). */
    void requireUser(String userId) {
        if (DerivedReads.found(dynamo.getItem(DerivedReads.exists(table, Users.key(userId)))) == null) {
            throw userNotFound(userId);
        }
    }

    /** Function 4: one page of the user's favourites of one type, newest first. */
    QueryPage byType(String userId, FavouriteType type, int limit, Map<String, AttributeValue> start) {
        return favourites.page(newestFirst(FavKeys.FAVOURITES_BY_TYPE_INDEX, FavKeys.FAV_TYPE_KEY,
                FavKeys.byType(userId, type)), limit, start, BY_TYPE_KEY);
    }

    /** Functions 8 and 9: one page of the favourites under a tag (of one type, if given), newest first. */
    QueryPage byTag(String userId, String tagId, FavouriteType type, int limit, Map<String, AttributeValue> start) {
        return type == null
                ? links.page(newestFirst(FavKeys.LINKS_BY_TAG_INDEX, FavKeys.LINK_TAG_KEY,
                        FavKeys.byTag(userId, tagId)), limit, start, BY_TAG_KEY)
                : links.page(newestFirst(FavKeys.LINKS_BY_TAG_TYPE_INDEX, FavKeys.LINK_TAG_TYPE_KEY,
                        FavKeys.byTagAndType(userId, tagId, type)), limit, start, BY_TAG_TYPE_KEY);
    }

    /**
     * Function 10: one page of the search partition of the query's chosen word ({@link SearchTerms#pick}), filtered
     * on the entries' word lists: every word whole, the last as a prefix. A query's limit counts the items read before
     * the filter, so the partition is read on until one item more than the page has passed the filter, the partition
     * ends, or {@link #SEARCH_ROUNDS} queries are spent (then the page may be short, and the cursor continues where
     * the reading stopped).
     */
    QueryPage search(String userId, List<String> words, int limit, Map<String, AttributeValue> start) {
        Condition filter = null;
        for (int i = 0; i < words.size(); i++) {
            boolean last = i == words.size() - 1;
            Condition word = Condition.contains(Favs.SEARCH_WORDS, " " + words.get(i) + (last ? "" : " "));
            filter = filter == null ? word : filter.and(word);
        }
        Query query = newestFirst(FavKeys.FAVOURITE_SEARCH_INDEX, FavKeys.SEARCH_KEY,
                FavKeys.searchPartition(userId, SearchTerms.term(SearchTerms.pick(words)))).filter(filter);
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        Map<String, AttributeValue> next = start;
        for (int round = 0; round < SEARCH_ROUNDS; round++) {
            QueryResponse response = dynamo.query(query.request(table, limit + 1, next));
            found.addAll(response.items());
            next = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey() : null;
            if (found.size() > limit || next == null) {
                break;
            }
        }
        if (found.size() > limit) {
            return new QueryPage(found.subList(0, limit), QueryPage.keyOf(found.get(limit - 1), SEARCH_KEY));
        }
        return new QueryPage(found, next);
    }

    /** 201 (true) when the link is new, 200 (false) when it was there; the link as stored. */
    record Linked(FavouriteTag link, boolean created) {
    }

    /**
     * Function 7: links the favourite and the tag if, at that instant, the favourite and the tag read are still there
     * (their incarnations), unless the link is there already, joining them (then nothing is written: a 200). A link
     * left by an earlier favourite or tag of the same ids is replaced. A link that is there already is a 200 even when
     * the favourite's links are at their limit; a new one past it is a 409 naming the limit. A link added by another
     * request between the count and the write makes the count start again ({@link FavQuota#claim}).
     */
    Linked link(String userId, String favouriteId, String tagId, TagStore tagStore, Instant now) {
        Favourite favourite = get(userId, favouriteId);
        Tag tag = tagStore.get(userId, tagId);
        FavouriteTag link = new FavouriteTag(favourite, tagId, now, tag.incarnation());
        FavQuota quota = FavQuota.links(favourite);
        for (int attempt = 1; ; attempt++) {
            Transaction write = Transaction.in(dynamo, table);
            write.check(Favourite.SCHEMA, favourite.key(), Condition.is(Favourite.INCARNATION,
                    favourite.incarnation())).orElse(() -> notFound(userId, favouriteId));
            write.check(Tag.SCHEMA, tag.key(), Condition.is(Tag.INCARNATION, tag.incarnation()))
                    .orElse(() -> TagStore.notFound(userId, tagId));
            Transaction.Action<Map<String, AttributeValue>> put = write.put(link.toItem(), Condition.absent()
                    .or(Condition.isNot(FavouriteTag.FAVOURITE_INCARNATION, favourite.incarnation()))
                    .or(Condition.isNot(FavouriteTag.TAG_INCARNATION, tag.incarnation())));
            put.orElse(seen -> seen.isPresent() ? new Joined(FavouriteTag.fromItem(seen.get())) : null);
            try {
                claim(quota, write, link, favourite).orElse(ChangedMeanwhile::new);
                write.commit();
                return new Linked(link, true);
            } catch (Joined joined) {
                return new Linked(joined.link, false);
            } catch (ChangedMeanwhile e) {
                if (attempt == Transactions.ATTEMPTS) {
                    throw ApiException.unavailable("the tags of favourite '" + favouriteId + "' keep changing; retry");
                }
            }
        }
    }

    /** The link was there already, joining the same incarnations: nothing is written. */
    private static final class Joined extends RuntimeException {
        private final FavouriteTag link;

        Joined(FavouriteTag link) {
            super(null, null, false, false);
            this.link = link;
        }
    }

    /**
     * The quota's claim for a new link. When the links are at their limit, a link that is there already joining the
     * same incarnations is {@link Joined}, and one of this favourite to an earlier tag of the same id is replaced,
     * adding none; anything else is the full quota's 409.
     */
    private Transaction.Action<?> claim(FavQuota quota, Transaction write, FavouriteTag link, Favourite favourite) {
        try {
            return quota.claim(dynamo, table, write);
        } catch (ApiException full) {
            FavouriteTag there = links.get(link.key()).orElse(null);
            if (there != null && there.sameAs(link)) {
                throw new Joined(there);
            }
            if (there == null || !there.favourite().incarnation().equals(favourite.incarnation())) {
                throw full;
            }
            return quota.claimReplacing(dynamo, table, write);
        }
    }

    FavouriteTag unlink(String userId, String favouriteId, String tagId) {
        return links.delete(FavKeys.link(userId, favouriteId, tagId)).orElseThrow(() -> ApiException.notFound(
                "favourite '" + favouriteId + "' of user '" + userId + "' has no tag '" + tagId + "'"));
    }

    /**
     * One page of the favourite's tags (their items, where the next page of links starts), in tag id order (a
     * consistent read of its partition, its links only: the partition also holds the link quota); a tag deleted but
     * not yet unlinked is left out. The tags (at most 100) are read consistently.
     */
    QueryPage tags(String userId, String favouriteId, int limit, Map<String, AttributeValue> start) {
        get(userId, favouriteId);
        QueryPage page = links.page(Query.partition(FavKeys.linksPk(userId, favouriteId))
                .startsWith(FavKeys.TAG_PREFIX), limit, start, TABLE_KEY);
        List<String> tagIds = page.items().stream().map(item -> FavouriteTag.fromItem(item).tagId()).toList();
        Map<String, Map<String, AttributeValue>> byId = new HashMap<>();
        BatchReads.getAllConsistent(dynamo, table, tagIds.stream().map(tagId -> FavKeys.tag(userId, tagId)).toList())
                .forEach(item -> byId.put(Tag.fromItem(item).tagId(), item));
        return new QueryPage(tagIds.stream().filter(byId::containsKey).map(byId::get).toList(), page.nextKey());
    }

    private static Query newestFirst(String index, String hashAttribute, String partition) {
        return Query.globalIndex(index, hashAttribute, partition).backwards();
    }

    static ApiException userNotFound(String userId) {
        return ApiException.notFound("user '" + userId + "' does not exist");
    }

    static ApiException notFound(String userId, String favouriteId) {
        return ApiException.notFound("user '" + userId + "' has no favourite '" + favouriteId + "'");
    }
}
