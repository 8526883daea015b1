package io.tally.writer.stats;

import io.tally.core.Ids;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.blog.PostRef;
import io.tally.core.blog.PostStatus;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.catalogue.CatalogueKeys;
import io.tally.core.catalogue.Selectors;
import io.tally.core.domains.Domains;
import io.tally.writer.stats.ShardMerge.Position;
import io.tally.writer.stats.ShardMerge.ShardRead;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Pure builders of the read side's requests (access patterns D1 to D5 of {@code docs/table-design.md}) and the
 * positions its merged lists resume from; tested by comparing what they build.
 *
 * <p>Table reads are strongly consistent, so that the only lag a client sees there is the stream processor's;
 * index queries cannot be (a global secondary index is eventually consistent) and add the index's own lag.
 * Every read names the attributes it needs: derived items also carry a watermark per stream shard that wrote
 * them, which the read side has no use for.
 */
final class StatsRequests {
    /**
     * Posts by status, newest first, ties by post id descending: the order of {@code postedAt}
     * ({@code <createdAt>#<postId>}, timestamps of one width) descending, which is each shard's own order.
     */
    static final Comparator<Position> POSTS_ORDER =
            Comparator.comparing(Position::sort).thenComparing(Position::id).reversed();
    /**
     * Selector entries by score descending, ties by item id descending, like the posts. Within one partition,
     * though, DynamoDB does not define the order of equal scores (DynamoDB Local returns them by insertion), and
     * the merge keeps each partition's own order: the item id decides ties between partitions only.
     */
    static final Comparator<Position> SELECTOR_ORDER =
            Comparator.comparing((Position p) -> Long.parseLong(p.sort())).thenComparing(Position::id).reversed();

    static final ShardMerge<Map<String, AttributeValue>> POSTS = new ShardMerge<>(StatsRequests::postPosition, POSTS_ORDER);
    static final ShardMerge<Map<String, AttributeValue>> SELECTOR =
            new ShardMerge<>(StatsRequests::selectorPosition, SELECTOR_ORDER);

    static final List<String> POST_ATTRIBUTES = List.of(TableSchema.ENTITY_TYPE,
            Blog.Projection.POST_ID, Blog.Projection.USER_ID, Blog.Projection.TITLE,
            Blog.Projection.STATUS, Blog.Projection.CREATED_AT,
            Blog.Projection.UPDATED_AT, Blog.Projection.COMMENTS,
            // The key parts a position is read from.
            TableSchema.PK, TableSchema.STATUS_POSTED_AT);
    static final List<String> SELECTOR_ATTRIBUTES = List.of(TableSchema.ENTITY_TYPE,
            Catalogue.Entry.ITEM_ID, Catalogue.Entry.TITLE, Catalogue.Entry.SCORE,
            TableSchema.PK, TableSchema.DATA);

    /** A score as the index returns it: a plain whole number that fits a long. */
    private static final Pattern WHOLE_NUMBER = Pattern.compile("0|[1-9][0-9]{0,17}");

    private StatsRequests() {
    }

    /** D1: a user's stats item. */
    static GetItemRequest userStats(String table, String userId) {
        return get(table, BlogKeys.userStats(userId), with(TableSchema.ENTITY_TYPE, Domains.USER_STATS.counters()));
    }

    /** Whether the user was ever written (users are never deleted): tells "no stats yet" from "no such user". */
    static GetItemRequest user(String table, String userId) {
        return get(table, BlogKeys.user(userId), List.of(TableSchema.PK));
    }

    /** D2: a post's projection, for its comment count. */
    static GetItemRequest postStats(String table, String postId) {
        return get(table, BlogKeys.postProjection(postId),
                List.of(TableSchema.ENTITY_TYPE, Blog.Projection.COMMENTS));
    }

    /** Whether the post was ever written: its {@code PostRef} stays, also when the post is soft-deleted. */
    static GetItemRequest postRef(String table, String postId) {
        return get(table, BlogKeys.postRef(postId), List.of(TableSchema.PK));
    }

    /** D3: every shard of the global totals in one request ({@link ShardSettings#MAX} keeps it within 100 keys). */
    static BatchGetItemRequest globalStats(String table, int shards) {
        Map<String, String> names = new HashMap<>();
        String projection = projection(with(TableSchema.ENTITY_TYPE, Domains.GLOBAL_STATS.counters()), names);
        List<Map<String, AttributeValue>> keys = IntStream.range(0, shards)
                .mapToObj(shard -> Domains.globalStatsKey(shard).toAttributeMap())
                .toList();
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(keys)
                        .projectionExpression(projection)
                        .expressionAttributeNames(names)
                        .consistentRead(true)
                        .build()))
                .build();
    }

    /**
     * The request for the keys a BatchGetItem left unprocessed (it may, when it runs into throughput limits),
     * or null when it processed all. DynamoDB returns them in the form of the original request, projection and
     * consistency included.
     */
    static BatchGetItemRequest unprocessed(BatchGetItemResponse response) {
        if (!response.hasUnprocessedKeys() || response.unprocessedKeys().values().stream()
                .allMatch(keys -> !keys.hasKeys() || keys.keys().isEmpty())) {
            return null;
        }
        return BatchGetItemRequest.builder().requestItems(response.unprocessedKeys()).build();
    }

    /**
     * D4: one page of one shard of a status, newest first. One item more than the page, so that a shard which
     * returns fewer is known to be exhausted.
     */
    static QueryRequest postsByStatus(String table, PostStatus status, int shard, int limit, Position after) {
        String partition = BlogKeys.statusShard(status, shard);
        return query(table, TableSchema.POSTS_BY_STATUS_INDEX, TableSchema.STATUS_SHARD, partition, POST_ATTRIBUTES,
                limit, after == null ? null : postStartKey(partition, after));
    }

    /** D5: one page of one partition of a selector, by score descending; one item more than the page. */
    static QueryRequest selector(String table, String partition, int limit, Position after) {
        return query(table, TableSchema.CYCLE_SELECTOR_INDEX, TableSchema.SELECTOR, partition, SELECTOR_ATTRIBUTES,
                limit, after == null ? null : selectorStartKey(partition, after));
    }

    /**
     * The index partitions of a selector: a cycle is one, the back catalogue is spread over
     * {@code back-catalogue:0..K-1} (see {@link Keys#selectorPartition}).
     */
    static List<String> selectorPartitions(String selector, int backCatalogueShards) {
        if (!Selectors.BACK_CATALOGUE.equals(selector)) {
            return List.of(selector);
        }
        return IntStream.range(0, backCatalogueShards).mapToObj(CatalogueKeys::backCatalogueShard).toList();
    }

    /**
     * A cursor is only good for the list that issued it, read with the same number of shards: a cursor of
     * another status, or from before the shard count changed, is refused rather than misread.
     */
    static String statusScope(PostStatus status, int shards) {
        return "posts-by-status\n" + status.value() + "\n" + shards;
    }

    static String selectorScope(String selector, int partitions) {
        return "selector\n" + selector + "\n" + partitions;
    }

    /** What one query of one shard gave the merge. */
    static ShardRead<Map<String, AttributeValue>> read(QueryResponse response,
                                                        Function<Map<String, AttributeValue>, Position> position) {
        Position last = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? position.apply(response.lastEvaluatedKey()) : null;
        return new ShardRead<>(response.items(), last);
    }

    /**
     * Where a projection (or a {@code LastEvaluatedKey} of the status index) sits: its creation time and post id,
     * the two parts of its {@code statusPostedAt}. A cursor holds one position per shard, so it holds each id once.
     */
    static Position postPosition(Map<String, AttributeValue> item) {
        String postId = idAfter(item, BlogKeys.POST_REF_PREFIX);
        String postedAt = Items.string(item, TableSchema.STATUS_POSTED_AT);
        int hash = postedAt.indexOf('#');
        if (hash < 0 || !postedAt.substring(hash + 1).equals(postId)) {
            throw new MalformedItemException("postedAt '" + postedAt + "' is not <createdAt>#" + postId);
        }
        return new Position(postedAt.substring(0, hash), postId);
    }

    /** Where a selector entry (or a {@code LastEvaluatedKey} of CycleSelector) sits: its score and item id. */
    static Position selectorPosition(Map<String, AttributeValue> item) {
        return new Position(Long.toString(Items.number(item, TableSchema.DATA)), idAfter(item, CatalogueKeys.ITEM_PREFIX));
    }

    /**
     * A position from a cursor must be one {@link #postPosition} could have produced; the timestamp in the one
     * spelling that sorts as its time.
     */
    static boolean isValidPostPosition(Position position) {
        if (!Ids.isValid(position.id())) {
            return false;
        }
        try {
            return Timestamps.format(Timestamps.parse(position.sort())).equals(position.sort());
        } catch (MalformedItemException e) {
            return false;
        }
    }

    /** A position from a cursor must be one {@link #selectorPosition} could have produced. */
    static boolean isValidSelectorPosition(Position position) {
        return Ids.isValid(position.id()) && WHOLE_NUMBER.matcher(position.sort()).matches();
    }

    /**
     * The exclusive start key after a projection: the index key (its partition, its statusPostedAt) and the table key.
     */
    static Map<String, AttributeValue> postStartKey(String partition, Position after) {
        Map<String, AttributeValue> key = new HashMap<>(BlogKeys.postProjection(after.id()).toAttributeMap());
        key.put(TableSchema.STATUS_SHARD, AttributeValue.fromS(partition));
        key.put(TableSchema.STATUS_POSTED_AT, AttributeValue.fromS(BlogKeys.postedAt(after.id(), Timestamps.parse(after.sort()))));
        return key;
    }

    static Map<String, AttributeValue> selectorStartKey(String partition, Position after) {
        Map<String, AttributeValue> key = new HashMap<>(CatalogueKeys.selectorEntry(after.id()).toAttributeMap());
        key.put(TableSchema.SELECTOR, AttributeValue.fromS(partition));
        key.put(TableSchema.DATA, AttributeValue.fromN(after.sort()));
        return key;
    }

    private static String idAfter(Map<String, AttributeValue> item, String prefix) {
        String pk = Items.string(item, TableSchema.PK);
        if (!pk.startsWith(prefix)) {
            throw new MalformedItemException("expected a key starting with " + prefix + " but found " + pk);
        }
        return pk.substring(prefix.length());
    }

    private static GetItemRequest get(String table, Key key, List<String> attributes) {
        Map<String, String> names = new HashMap<>();
        String projection = projection(attributes, names);
        return GetItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .projectionExpression(projection)
                .expressionAttributeNames(names)
                .consistentRead(true)
                .build();
    }

    private static QueryRequest query(String table, String index, String hashAttribute, String partition,
                                      List<String> attributes, int limit, Map<String, AttributeValue> startKey) {
        Map<String, String> names = new HashMap<>();
        String projection = projection(attributes, names);
        names.put("#partition", hashAttribute);
        return QueryRequest.builder()
                .tableName(table)
                .indexName(index)
                .keyConditionExpression("#partition = :partition")
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":partition", AttributeValue.fromS(partition)))
                .projectionExpression(projection)
                .scanIndexForward(false)
                .limit(limit + 1)
                .exclusiveStartKey(startKey)
                .build();
    }

    /** Placeholders for every name: several attribute names ({@code status}, {@code data}) are reserved words. */
    private static String projection(List<String> attributes, Map<String, String> names) {
        return attributes.stream().map(attribute -> {
            names.put("#" + attribute, attribute);
            return "#" + attribute;
        }).collect(Collectors.joining(", "));
    }

    private static List<String> with(String first, List<String> rest) {
        return Stream.concat(Stream.of(first), rest.stream()).toList();
    }
}
