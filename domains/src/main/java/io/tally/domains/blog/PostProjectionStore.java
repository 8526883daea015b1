package io.tally.domains.blog;

import io.tally.core.http.ApiException;
import io.tally.core.read.DerivedReads;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The reads of a post's projection the stream processor maintains (access pattern D2). A projection is missing both
 * for a post with nothing derived yet and for one never written; the post's ref tells them apart, here.
 */
record PostProjectionStore(DynamoDbClient dynamo, String table) {
    /**
     * The counters of the post's projection, or null when there is none yet. A projection exists only for a post that
     * exists, so the ref (whose key alone is read; it stays when the post is soft-deleted) is read only when there is
     * none: a post never written is {@code not_found}.
     */
    Map<String, AttributeValue> stats(String postId) {
        Map<String, AttributeValue> projection = DerivedReads.found(dynamo.getItem(DerivedReads.get(table,
                Blog.POST_PROJECTION.key(postId), DerivedReads.counters(Blog.POST_PROJECTION))));
        if (projection == null
                && DerivedReads.found(dynamo.getItem(DerivedReads.exists(table, BlogKeys.postRef(postId)))) == null) {
            throw ApiException.notFound("post '" + postId + "' does not exist");
        }
        return projection;
    }
}
