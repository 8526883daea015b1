package io.tally.domains.blog;

import io.tally.core.Shards;
import io.tally.core.view.ProjectionView;
import io.tally.core.view.SharedCounts;

/**
 * The blog's figures, declared as views (in a class of their own: they read the posts' and comments' schemas): the
 * posts' copies in the status index with their comments; a user's posts that are not deleted and the global posts per
 * status; a user's comments, as their author, and the global comments. The read side of the counts is the kernel's
 * {@code /stats/users/{userId}} and {@code /stats/global}; that of the copies {@link PostProjectionRoutes}.
 */
final class BlogFigures {
    /**
     * A post's copy in the PostsByStatus index ({@link Blog#POST_PROJECTION}), kept for a deleted post too
     * ({@code GET /posts?status=deleted} lists it), in the status shard of its id ({@code STATUS_SHARDS}): the shard
     * follows the post id, not the status, so a status change moves the copy between the status partitions by updating
     * one attribute. Its revision is the post's version: 1 when created, one more with every update and soft delete
     * (post ids are generated and never reused, the post ref guards them, and the API never removes a post). The
     * comments on the same item are counted by {@link #COMMENTS}.
     */
    static final ProjectionView<Post, PostProjection> PROJECTION =
            ProjectionView.over(Post.SCHEMA, PostProjection.class)
                    .type(Blog.POST_PROJECTION, Post::postId)
                    .project(PostProjection::of)
                    .indexKey(BlogKeys.STATUS_SHARD, (post, shards) -> BlogKeys.statusShard(post.status(),
                            Shards.of(post.postId(), shards.count(BlogKeys.STATUS_SHARDS))))
                    .indexKey(BlogKeys.STATUS_POSTED_AT, (post, shards) -> BlogKeys.postedAt(post.postId(),
                            post.createdAt()))
                    .revision(Post::version)
                    .build();

    static final SharedCounts<Post> POSTS = SharedCounts.over(Post.SCHEMA)
            .user(Blog.USER_POSTS, Post::userId, post -> post.status() != PostStatus.DELETED)
            .global(Blog.GLOBAL_POSTS_CREATED, post -> post.status() == PostStatus.CREATED)
            .global(Blog.GLOBAL_POSTS_UPDATED, post -> post.status() == PostStatus.UPDATED)
            .global(Blog.GLOBAL_POSTS_DELETED, post -> post.status() == PostStatus.DELETED)
            .build();

    /**
     * An existing comment counts on its post's copy in the status index, in its author's stats and in the global
     * totals; a deleted comment (REMOVE) no longer exists, so it stops counting everywhere.
     */
    static final SharedCounts<Comment> COMMENTS = SharedCounts.over(Comment.SCHEMA)
            .on(Blog.POST_PROJECTION, Comment::postId, Blog.Projection.COMMENTS)
            .user(Blog.USER_COMMENTS, Comment::authorId)
            .global(Blog.GLOBAL_COMMENTS)
            .build();

    private BlogFigures() {
    }
}
