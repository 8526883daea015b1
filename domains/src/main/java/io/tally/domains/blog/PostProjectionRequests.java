package io.tally.domains.blog;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Pure builders of the reads of the blog's derived type, the post projection (access patterns D2 and D4), and
 * the positions its merged list resumes from; tested by comparing what they build.
 */
final class PostProjectionRequests {
    /**
     * Posts by status, newest first, ties by post id descending: the order of {@code postedAt}
     * ({@code <createdAt>#<postId>}, timestamps of one width) descending, which is each shard's own order.
     */
    static final Comparator<Position> POSTS_ORDER =
            Comparator.comparing(Position::sort).thenComparing(Position::id).reversed();
    static final ShardMerge<Map<String, AttributeValue>> POSTS =
            new ShardMerge<>(PostProjectionRequests::postPosition, POSTS_ORDER);
    /**
     * The projection's fields but its counters, and the key parts a position is read from: what the status index
     * projects. The counters ({@code comments}) are not in the index, so that a comment does not rewrite the index
     * entry; a page reads them from the table ({@link #counted}).
     */
    static final List<String> POST_ATTRIBUTES =
            DerivedReads.listed(Blog.POST_PROJECTION, TableSchema.PK, BlogKeys.STATUS_POSTED_AT).stream()
                    .filter(attribute -> !Blog.POST_PROJECTION.counters().contains(attribute))
                    .toList();
    /** What is read of each projection at {@link #counted}: its key, to match it up, and its counters. */
    static final List<String> COUNT_ATTRIBUTES =
            Stream.concat(Stream.of(TableSchema.PK), Blog.POST_PROJECTION.counters().stream()).toList();

    private PostProjectionRequests() {
    }

    /** D2: a post's projection, for its counters. */
    static GetItemRequest postStats(String table, String postId) {
        return DerivedReads.get(table, Blog.POST_PROJECTION.key(postId), DerivedReads.counters(Blog.POST_PROJECTION));
    }

    /**
     * D4's counters: the keys of the projections of one page (at most {@link io.tally.core.http.Page#MAX_LIMIT}), to
     * read from the table in one BatchGetItem, eventually consistent as the index the page came from.
     */
    static List<Key> counted(List<Map<String, AttributeValue>> projections) {
        return projections.stream().map(item -> Blog.POST_PROJECTION.key(DerivedReads.idAfter(item,
                BlogKeys.POST_REF_PREFIX))).toList();
    }

    /**
     * The page's projections with their counters from {@code counted} (the items read at {@link #counted}, by
     * {@code pk}); a projection the read did not return (removed since the query) keeps none, which reads as zero.
     */
    static List<Map<String, AttributeValue>> withCounts(List<Map<String, AttributeValue>> projections,
                                                        List<Map<String, AttributeValue>> counted) {
        Map<String, Map<String, AttributeValue>> byPk = new HashMap<>();
        counted.forEach(item -> byPk.put(item.get(TableSchema.PK).s(), item));
        return projections.stream().map(item -> {
            Map<String, AttributeValue> counts = byPk.get(item.get(TableSchema.PK).s());
            if (counts == null) {
                return item;
            }
            Map<String, AttributeValue> merged = new HashMap<>(item);
            Blog.POST_PROJECTION.counters().forEach(counter -> {
                AttributeValue value = counts.get(counter);
                if (value != null) {
                    merged.put(counter, value);
                }
            });
            return merged;
        }).toList();
    }

    /** Whether the post was ever written: its {@code PostRef} stays, also when the post is soft-deleted. */
    static GetItemRequest postRef(String table, String postId) {
        return DerivedReads.exists(table, BlogKeys.postRef(postId));
    }

    /**
     * D4: one page of one shard of a status, newest first. One item more than the page, so that a shard which
     * returns fewer is known to be exhausted.
     */
    static QueryRequest postsByStatus(String table, PostStatus status, int shard, int limit, Position after) {
        String partition = BlogKeys.statusShard(status, shard);
        return DerivedReads.indexQuery(table, BlogKeys.POSTS_BY_STATUS_INDEX, BlogKeys.STATUS_SHARD, partition,
                POST_ATTRIBUTES, limit, after == null ? null : postStartKey(partition, after));
    }

    /**
     * A cursor is only good for the list that issued it, read with the same number of shards: a cursor of
     * another status, or from before the shard count changed, is refused rather than misread.
     */
    static String statusScope(PostStatus status, int shards) {
        return "posts-by-status\n" + status.value() + "\n" + shards;
    }

    /**
     * Where a projection (or a {@code LastEvaluatedKey} of the status index) sits: its creation time and post id,
     * the two parts of its {@code statusPostedAt}. A cursor holds one position per shard, so it holds each id once.
     */
    static Position postPosition(Map<String, AttributeValue> item) {
        String postId = DerivedReads.idAfter(item, BlogKeys.POST_REF_PREFIX);
        String postedAt = Items.string(item, BlogKeys.STATUS_POSTED_AT);
        int hash = postedAt.indexOf('#');
        if (hash < 0 || !postedAt.substring(hash + 1).equals(postId)) {
            throw new MalformedItemException("postedAt '" + postedAt + "' is not <createdAt>#" + postId);
        }
        return new Position(postedAt.substring(0, hash), postId);
    }

    /**
     * A position from a cursor must be one {@link #postPosition} could have produced; the timestamp in the one
     * spelling that sorts as its time.
     */
    static boolean isValidPostPosition(Position position) {
        return DerivedReads.isTimeAndId(position);
    }

    /**
     * The exclusive start key after a projection: the index key (its partition, its statusPostedAt) and the table key.
     */
    static Map<String, AttributeValue> postStartKey(String partition, Position after) {
        Map<String, AttributeValue> key = new HashMap<>(Blog.POST_PROJECTION.key(after.id()).toAttributeMap());
        key.put(BlogKeys.STATUS_SHARD, AttributeValue.fromS(partition));
        key.put(BlogKeys.STATUS_POSTED_AT,
                AttributeValue.fromS(BlogKeys.postedAt(after.id(), Timestamps.parse(after.sort()))));
        return key;
    }
}
