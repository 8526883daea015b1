package io.tally.domains.blog;

import io.tally.core.domain.RouteContext;
import io.tally.core.domain.ShardedList;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import io.tally.core.read.StatsJson;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /stats/posts/{postId}} and {@code GET /posts?status=...}: the blog's read side. It reads only the
 * projections the stream processor maintains, by key or by index partition, never with a scan; so its answers
 * are eventually consistent with the writes.
 */
record PostProjectionRoutes(RouteContext context, PostProjectionStore projections) {
    /** D4: the copies of one status, newest first, ties by post id descending, merged over the status's shards. */
    private static final ShardedList POSTS = ShardedList.of(BlogFigures.PROJECTION, BlogKeys.POSTS_BY_STATUS);
    private static final String STATUSES =
            Arrays.stream(PostStatus.values()).map(PostStatus::value).collect(Collectors.joining(", "));

    /** {@code GET /stats/posts/{postId}}: the counters of the post's projection, zero until one is counted. */
    record PostStats(String postId, long comments) {
        /** From the post's projection, or null when there is none yet. */
        static PostStats of(String postId, Map<String, AttributeValue> projection) {
            StatsJson.check(projection, Blog.POST_PROJECTION.entityType());
            return new PostStats(postId, StatsJson.counter(projection, Blog.Projection.COMMENTS));
        }
    }

    void register(Router router) {
        router.add("GET", "/stats/posts/{postId}", Access.READ_SIDE, this::postStats)
                    .summary("A post's comment count (eventually consistent)").returns(200, PostStats.class)
                .add("GET", "/posts", Access.READ_SIDE, this::postsByStatus)
                    .summary("Posts of a status, newest first, from the status index").query("status")
                    .page(PostProjection.class);
    }

    ApiResponse postStats(ApiRequest request) {
        String postId = request.id("postId");
        return ApiResponse.ok(PostStats.of(postId, projections.stats(postId)));
    }

    /**
     * A cursor is only good for the list that issued it, read with the same number of shards: a cursor of another
     * status, or from before the shard count changed, is refused rather than misread.
     */
    ApiResponse postsByStatus(ApiRequest request) {
        PostStatus status = statusParameter(request.queryParameter("status"));
        int shards = context.shards().count(BlogKeys.STATUS_SHARDS);
        List<String> partitions = IntStream.range(0, shards).mapToObj(shard -> BlogKeys.statusShard(status, shard))
                .toList();
        return POSTS.page(context, request, "posts-by-status\n" + status.value() + "\n" + shards, partitions);
    }

    private static PostStatus statusParameter(String value) {
        if (value == null) {
            throw ApiException.badRequest("query parameter 'status' is required: one of " + STATUSES, "status");
        }
        return PostStatus.parse(value)
                .orElseThrow(() -> ApiException.badRequest("'status' must be one of " + STATUSES, "status"));
    }
}
