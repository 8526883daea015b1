package io.tally.domains.blog;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transaction;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import io.tally.core.users.UserStore;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The posts and their refs in the table, and the client's answer to each refused write. */
final class PostStore {
    /** The key attributes of the posts-by-time index, which its pagination cursors consist of. */
    static final Set<String> LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK, BlogKeys.POSTED_AT);

    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Post> posts;
    private final TypedTable<PostRef> refs;

    PostStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.posts = TypedTable.of(dynamo, table, Post.SCHEMA);
        this.refs = TypedTable.of(dynamo, table, PostRef.SCHEMA);
    }

    /**
     * Writes the post together with its {@link PostRef}, in one transaction so that neither exists without the other.
     * The ref's condition makes post ids unique across all users (the post's own key holds its user and time, so its
     * condition alone could not); the check refuses a post of a user who does not exist ({@code not_found}), before a
     * post id already taken ({@code conflict}).
     */
    void create(Post post) {
        Transaction write = Transaction.in(dynamo, table);
        write.requireExists(Users.key(post.userId())).orElse(() -> UserStore.notFound(post.userId()));
        write.putNew(PostRef.SCHEMA, new PostRef(post.postId(), post.userId(), post.createdAt()))
                .orElse(() -> taken(post));
        write.putNew(Post.SCHEMA, post).orElse(() -> taken(post));
        write.commit();
    }

    private static ApiException taken(Post post) {
        return ApiException.conflict("post '" + post.postId() + "' already exists");
    }

    /**
     * Finds where a post is stored: its key holds its creation time, which only the {@link PostRef} knows. A
     * post under another user is not found, so that a path never reaches a post through the wrong user.
     */
    PostRef locate(String userId, String postId) {
        return refs.get(BlogKeys.postRef(postId)).filter(ref -> ref.userId().equals(userId))
                .orElseThrow(() -> notFound(userId, postId));
    }

    Post get(PostRef ref) {
        return posts.get(ref.postKey()).orElseThrow(() -> notFound(ref.userId(), ref.postId()));
    }

    /**
     * The post after the change: the given fields set, marked updated, its version bumped. Refused for a post that is
     * not there or deleted ({@code conflict} whatever {@code If-Match} says: a deleted post cannot change at any
     * version), and for another version than {@code If-Match}'s.
     */
    Post update(PostRef ref, String title, String body, Instant now, IfMatch ifMatch) {
        Update change = Update.versioned(now).set(Post.TITLE, title).set(Post.BODY, body)
                .set(Post.STATUS, PostStatus.UPDATED);
        return posts.update(ref.postKey(), change, live(ifMatch), current -> {
            Post post = current.orElseThrow(() -> notFound(ref.userId(), ref.postId()));
            if (post.status() == PostStatus.DELETED) {
                throw ApiException.conflict("post '" + ref.postId() + "' is deleted");
            }
            throw stale(post, ifMatch);
        });
    }

    /**
     * The post after the soft delete (the item stays, with status {@code deleted}), under the same conditions as an
     * update. A repeated delete (say, a retry whose response was lost) finds the change already made: RFC 9110 section
     * 13.1.1 lets it succeed with the deleted post, even when its If-Match names the version before that delete.
     */
    Post delete(PostRef ref, Instant now, IfMatch ifMatch) {
        return posts.update(ref.postKey(), Update.versioned(now).set(Post.STATUS, PostStatus.DELETED), live(ifMatch),
                current -> {
                    Post post = current.orElseThrow(() -> notFound(ref.userId(), ref.postId()));
                    if (post.status() == PostStatus.DELETED) {
                        return post;
                    }
                    throw stale(post, ifMatch);
                });
    }

    /** The post is there, not deleted, and at {@code If-Match}'s version when it names one. */
    private static Condition live(IfMatch ifMatch) {
        return Condition.exists().and(Condition.isNot(Post.STATUS, PostStatus.DELETED)).atVersion(ifMatch.version());
    }

    /**
     * One page of a user's posts, newest first; the caller has checked that the user exists. The base sort key orders
     * posts by id (and ids may be chosen by the client), so the query runs on the sparse time index, which holds the
     * posts and nothing else of the user's partition.
     */
    QueryPage list(String userId, int limit, Map<String, AttributeValue> start) {
        return posts.page(Query.localIndex(BlogKeys.POSTS_BY_TIME_INDEX, Users.pk(userId)).backwards(), limit, start,
                LIST_KEY);
    }

    static ApiException notFound(String userId, String postId) {
        return ApiException.notFound("user '" + userId + "' has no post '" + postId + "'");
    }

    private static ApiException stale(Post current, IfMatch ifMatch) {
        return ApiException.preconditionFailed("post '" + current.postId() + "' is at version "
                + current.version() + ", not " + ifMatch.version());
    }
}
