package io.tally.writer.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.ShardSettings;
import io.tally.core.blog.PostStatus;
import io.tally.core.catalogue.Selectors;
import io.tally.writer.RouteContext;
import io.tally.writer.http.ApiException;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Page;
import io.tally.writer.http.Router;
import io.tally.writer.stats.ShardMerge.MergedPage;
import io.tally.writer.stats.ShardMerge.Position;
import io.tally.writer.stats.ShardMerge.Resume;
import io.tally.writer.stats.ShardMerge.ShardRead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The read side: {@code GET /stats/users/{userId}}, {@code GET /stats/posts/{postId}}, {@code GET /stats/global},
 * {@code GET /posts?status=...} and {@code GET /selectors/{selector}}. It reads only the derived items the stream
 * processor maintains, by key or by index partition, never with a scan; so its answers are eventually
 * consistent with the writes.
 */
public final class StatsRoutes {
    /** Calls of one BatchGetItem until every key is read; each retry asks only for the keys left over. */
    static final int MAX_BATCH_ATTEMPTS = 5;
    private static final String STATUSES =
            Arrays.stream(PostStatus.values()).map(PostStatus::value).collect(Collectors.joining(", "));

    private final RouteContext context;
    private final ShardSettings shards;

    public StatsRoutes(RouteContext context, ShardSettings shards) {
        this.context = context;
        this.shards = shards;
    }

    public void register(Router router) {
        router.add("GET", "/stats/users/{userId}", this::userStats)
                .add("GET", "/stats/posts/{postId}", this::postStats)
                .add("GET", "/stats/global", this::globalStats)
                .add("GET", "/posts", this::postsByStatus)
                .add("GET", "/selectors/{selector}", this::selector);
    }

    /**
     * Stats exist only for users who exist (users are never deleted), so the user item is read only when there
     * are no stats, to tell a user with nothing counted yet from one who was never written.
     */
    ApiResponse userStats(ApiRequest request) {
        String userId = request.id("userId");
        Map<String, AttributeValue> stats = item(context.dynamo().getItem(StatsRequests.userStats(context.table(), userId)));
        if (stats == null && item(context.dynamo().getItem(StatsRequests.user(context.table(), userId))) == null) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return ApiResponse.ok(StatsJson.userStats(userId, stats));
    }

    /** The same for posts: a projection exists only for a post that exists. */
    ApiResponse postStats(ApiRequest request) {
        String postId = request.id("postId");
        Map<String, AttributeValue> projection =
                item(context.dynamo().getItem(StatsRequests.postStats(context.table(), postId)));
        if (projection == null && item(context.dynamo().getItem(StatsRequests.postRef(context.table(), postId))) == null) {
            throw ApiException.notFound("post '" + postId + "' does not exist");
        }
        return ApiResponse.ok(StatsJson.postStats(postId, projection));
    }

    ApiResponse globalStats(ApiRequest request) {
        return ApiResponse.ok(StatsJson.globalStats(batchGet(StatsRequests.globalStats(context.table(), shards.global()))));
    }

    ApiResponse postsByStatus(ApiRequest request) {
        PostStatus status = statusParameter(request.queryParameter("status"));
        int limit = Page.limit(request);
        String scope = StatsRequests.statusScope(status, shards.status());
        List<Resume> from = ShardMerge.decode(context.cursors(), scope, request.queryParameter("cursor"),
                shards.status(), StatsRequests::isValidPostPosition);
        MergedPage<Map<String, AttributeValue>> page = StatsRequests.POSTS.merge(from,
                readShards(from, (shard, after) -> StatsRequests.postsByStatus(context.table(), status, shard, limit, after),
                        StatsRequests::postPosition),
                limit);
        List<ObjectNode> posts = page.items().stream().map(StatsJson::post).toList();
        return ApiResponse.ok(Page.body(posts, ShardMerge.encode(context.cursors(), scope, page.next())));
    }

    ApiResponse selector(ApiRequest request) {
        String selector = request.pathParameters().get("selector");
        if (!Selectors.isValid(selector)) {
            throw ApiException.validation("selector", Selectors.describeRule());
        }
        int limit = Page.limit(request);
        List<String> partitions = StatsRequests.selectorPartitions(selector, shards.selector());
        String scope = StatsRequests.selectorScope(selector, partitions.size());
        List<Resume> from = ShardMerge.decode(context.cursors(), scope, request.queryParameter("cursor"),
                partitions.size(), StatsRequests::isValidSelectorPosition);
        MergedPage<Map<String, AttributeValue>> page = StatsRequests.SELECTOR.merge(from,
                readShards(from, (shard, after) -> StatsRequests.selector(context.table(), partitions.get(shard), limit, after),
                        StatsRequests::selectorPosition),
                limit);
        List<ObjectNode> items = page.items().stream().map(StatsJson::selectorItem).toList();
        return ApiResponse.ok(Page.body(items, ShardMerge.encode(context.cursors(), scope, page.next())));
    }

    /**
     * One query per shard that is not exhausted. One after the other: K is small, and the synchronous client
     * keeps the function simple; parallel queries would cut the latency to that of the slowest shard.
     */
    private List<ShardRead<Map<String, AttributeValue>>> readShards(
            List<Resume> from, BiFunction<Integer, Position, QueryRequest> request,
            Function<Map<String, AttributeValue>, Position> position) {
        List<ShardRead<Map<String, AttributeValue>>> reads = new ArrayList<>(from.size());
        for (int shard = 0; shard < from.size(); shard++) {
            Resume resume = from.get(shard);
            reads.add(resume.done() ? null
                    : StatsRequests.read(context.dynamo().query(request.apply(shard, resume.after())), position));
        }
        return reads;
    }

    /**
     * Every item of a BatchGetItem. DynamoDB may leave keys unprocessed when it runs into throughput limits; they
     * are asked for again after a short, growing, jittered pause, and a batch that still has some after
     * {@link #MAX_BATCH_ATTEMPTS} calls is a 503 for the client to retry.
     */
    List<Map<String, AttributeValue>> batchGet(BatchGetItemRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        BatchGetItemRequest next = request;
        for (int attempt = 1; ; attempt++) {
            BatchGetItemResponse response = context.dynamo().batchGetItem(next);
            items.addAll(response.responses().getOrDefault(context.table(), List.of()));
            next = StatsRequests.unprocessed(response);
            if (next == null) {
                return items;
            }
            if (attempt == MAX_BATCH_ATTEMPTS) {
                throw ApiException.unavailable("the table is busy; retry");
            }
            pause(attempt);
        }
    }

    private static PostStatus statusParameter(String value) {
        if (value == null) {
            throw ApiException.badRequest("query parameter 'status' is required: one of " + STATUSES, "status");
        }
        return PostStatus.parse(value)
                .orElseThrow(() -> ApiException.badRequest("'status' must be one of " + STATUSES, "status"));
    }

    /** The item a GetItem found, or null: the SDK answers a miss with an empty map. */
    private static Map<String, AttributeValue> item(GetItemResponse response) {
        return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while waiting to retry");
        }
    }
}
