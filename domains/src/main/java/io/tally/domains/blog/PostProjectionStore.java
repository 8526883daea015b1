package io.tally.domains.blog;

import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Resume;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The reads of the post projections the stream processor maintains. A projection is missing both for a post
 * with nothing derived yet and for one never written; the post's ref tells them apart, here.
 */
record PostProjectionStore(DynamoDbClient dynamo, String table) {
    /**
     * The post's projection, or null when there is none yet. A projection exists only for a post that exists,
     * so the ref is read only when there is none: a post never written is {@code not_found}.
     */
    Map<String, AttributeValue> stats(String postId) {
        Map<String, AttributeValue> projection =
                DerivedReads.found(dynamo.getItem(PostProjectionRequests.postStats(table, postId)));
        if (projection == null && DerivedReads.found(dynamo.getItem(PostProjectionRequests.postRef(table, postId))) == null) {
            throw ApiException.notFound("post '" + postId + "' does not exist");
        }
        return projection;
    }

    /**
     * One page of the posts of a status, merged from every shard that is not exhausted, with their comment counts:
     * the index does not project them, one BatchGetItem reads them from the table.
     */
    MergedPage<Map<String, AttributeValue>> byStatus(PostStatus status, List<Resume> from, int limit) {
        MergedPage<Map<String, AttributeValue>> page = PostProjectionRequests.POSTS.merge(from,
                DerivedReads.readShards(dynamo, from,
                        (shard, after) -> PostProjectionRequests.postsByStatus(table, status, shard, limit, after),
                        PostProjectionRequests::postPosition),
                limit);
        return new MergedPage<>(PostProjectionRequests.withCounts(page.items(), BatchReads.getAll(dynamo, table,
                PostProjectionRequests.counted(page.items()), PostProjectionRequests.COUNT_ATTRIBUTES)), page.next());
    }
}
