package io.tally.domains.blog;

import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import io.tally.core.users.UserStore;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Where a cancelled post transaction or a failed post condition becomes the client's answer. The reasons of a
 * cancellation come by action position and the old image of a failed update tells its rules apart; both are
 * read here, next to the requests that fix those positions and conditions ({@link PostRequests}).
 */
record PostStore(DynamoDbClient dynamo, String table) {
    /** Writes the post and its ref; a missing user is {@code not_found}, a post id already taken a {@code conflict}. */
    void create(Post post) {
        try {
            Transactions.write(dynamo, PostRequests.create(table, post));
        } catch (TransactionCanceledException e) {
            if (Transactions.conditionFailed(e, PostRequests.CREATE_USER)) {
                throw UserStore.notFound(post.userId());
            }
            if (Transactions.conditionFailed(e, PostRequests.CREATE_REF)
                    || Transactions.conditionFailed(e, PostRequests.CREATE_POST)) {
                throw ApiException.conflict("post '" + post.postId() + "' already exists");
            }
            throw e;
        }
    }

    /**
     * Finds where a post is stored: its key holds its creation time, which only the {@link PostRef} knows. A
     * post under another user is not found, so that a path never reaches a post through the wrong user.
     */
    PostRef locate(String userId, String postId) {
        Map<String, AttributeValue> item = dynamo.getItem(PostRequests.getRef(table, postId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, postId);
        }
        PostRef ref = PostRef.fromItem(item);
        if (!ref.userId().equals(userId)) {
            throw notFound(userId, postId);
        }
        return ref;
    }

    Post get(PostRef ref) {
        Map<String, AttributeValue> item = dynamo.getItem(PostRequests.get(table, ref.postKey())).item();
        if (item == null || item.isEmpty()) {
            throw notFound(ref.userId(), ref.postId());
        }
        return Post.fromItem(item);
    }

    /** The post after the change; a deleted post is a {@code conflict} whatever {@code If-Match} says. */
    Post update(PostRef ref, String title, String body, Instant now, IfMatch ifMatch) {
        try {
            return Post.fromItem(dynamo.updateItem(PostRequests.update(table, ref.postKey(), title, body, now, ifMatch))
                    .attributes());
        } catch (ConditionalCheckFailedException e) {
            Post current = current(e, ref);
            // Deleted first: a deleted post cannot change at any version, so If-Match is beside the point.
            if (current.status() == PostStatus.DELETED) {
                throw ApiException.conflict("post '" + ref.postId() + "' is deleted");
            }
            throw stale(current, ifMatch);
        }
    }

    /**
     * The post after the soft delete. A repeated delete (say, a retry whose response was lost) finds the change
     * already made: RFC 9110 section 13.1.1 lets it succeed with the deleted post, even when its If-Match names
     * the version before that delete.
     */
    Post delete(PostRef ref, Instant now, IfMatch ifMatch) {
        try {
            return Post.fromItem(dynamo.updateItem(PostRequests.delete(table, ref.postKey(), now, ifMatch)).attributes());
        } catch (ConditionalCheckFailedException e) {
            Post current = current(e, ref);
            if (current.status() == PostStatus.DELETED) {
                return current;
            }
            throw stale(current, ifMatch);
        }
    }

    /** One page of a user's posts, newest first; the caller has checked that the user exists. */
    QueryPage list(String userId, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(PostRequests.list(table, userId, limit, start)), limit, PostRequests.LIST_KEY);
    }

    static ApiException notFound(String userId, String postId) {
        return ApiException.notFound("user '" + userId + "' has no post '" + postId + "'");
    }

    private static Post current(ConditionalCheckFailedException e, PostRef ref) {
        if (!e.hasItem() || e.item().isEmpty()) {
            throw notFound(ref.userId(), ref.postId());
        }
        return Post.fromItem(e.item());
    }

    private static ApiException stale(Post current, IfMatch ifMatch) {
        return ApiException.preconditionFailed("post '" + current.postId() + "' is at version "
                + current.version() + ", not " + ifMatch.version());
    }
}
