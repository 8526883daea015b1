package io.tally.domains.blog;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transaction;
import io.tally.core.store.TypedTable;
import io.tally.core.users.Users;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The comments in their posts' partitions, and the client's answer to each refused write. */
final class CommentStore {
    /** The key attributes of the table, which the comment list's pagination cursors consist of. */
    static final Set<String> LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK);

    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Comment> comments;

    CommentStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.comments = TypedTable.of(dynamo, table, Comment.SCHEMA);
    }

    /**
     * Writes the comment of a located post if, at that instant, its post exists and is not deleted and its author
     * exists. A missing post or author is a 404 before a deleted post is a 409: what does not exist cannot be in
     * conflict. The post's check answers the post it saw, which tells a missing post from a deleted one.
     */
    void create(Comment comment) {
        Transaction write = Transaction.in(dynamo, table);
        Transaction.Action<Post> post = write.check(Post.SCHEMA, new PostRef(comment.postId(), comment.postUserId(),
                comment.postCreatedAt()).postKey(), Condition.exists().and(Condition.isNot(Post.STATUS,
                PostStatus.DELETED)));
        Transaction.Action<?> author = write.requireExists(Users.key(comment.authorId()));
        write.putNew(Comment.SCHEMA, comment);
        write.commit(refused -> {
            if (refused.refused(post) && refused.current(post).isEmpty()) {
                return PostStore.notFound(comment.postUserId(), comment.postId());
            }
            if (refused.refused(author)) {
                return ApiException.notFound("author '" + comment.authorId() + "' does not exist");
            }
            return refused.refused(post) ? ApiException.conflict("post '" + comment.postId() + "' is deleted") : null;
        });
    }

    /**
     * One page of a post's comments, oldest first: comment ids are generated time-ordered, so the sort key order is
     * the time order.
     */
    QueryPage list(PostRef post, int limit, Map<String, AttributeValue> start) {
        return comments.page(inPost(post, BlogKeys.COMMENT_PREFIX), limit, start, LIST_KEY);
    }

    /**
     * The comment as it was before the hard delete; a comment not there (any more) is {@code not_found}.
     * {@code mayDelete} sees the comment first and throws to keep it (a caller who may not delete it); a comment never
     * changes, so what it saw is what goes. Its sort key also holds its creation time, which the path does not give:
     * it is found by the prefix of its id, which ends with the separator, so one id never matches another that starts
     * with it.
     */
    Comment delete(PostRef post, String commentId, Consumer<Comment> mayDelete) {
        Comment found = comments.first(inPost(post, BlogKeys.commentSkPrefix(commentId)))
                .orElseThrow(() -> notFound(post.postId(), commentId));
        mayDelete.accept(found);
        return comments.delete(found.key()).orElseThrow(() -> notFound(post.postId(), commentId));
    }

    /** The sort keys of the post's comment partition that start with {@code prefix}. */
    private static Query inPost(PostRef post, String prefix) {
        return Query.partition(BlogKeys.commentsPk(post.postId(), post.createdAt())).startsWith(prefix);
    }

    private static ApiException notFound(String postId, String commentId) {
        return ApiException.notFound("post '" + postId + "' has no comment '" + commentId + "'");
    }
}
