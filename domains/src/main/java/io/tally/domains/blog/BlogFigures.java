package io.tally.domains.blog;

import io.tally.core.view.SharedCounts;

/**
 * The blog's counts in the shared items, declared as views (in a class of their own: they read the posts' and
 * comments' schemas): a user's posts that are not deleted and the global posts per status; a user's comments, as their
 * author, and the global comments. The read side is the kernel's {@code /stats/users/{userId}} and {@code /stats/global}.
 */
final class BlogFigures {
    static final SharedCounts<Post> POSTS = SharedCounts.over(Post.SCHEMA)
            .user(Blog.USER_POSTS, Post::userId, post -> post.status() != PostStatus.DELETED)
            .global(Blog.GLOBAL_POSTS_CREATED, post -> post.status() == PostStatus.CREATED)
            .global(Blog.GLOBAL_POSTS_UPDATED, post -> post.status() == PostStatus.UPDATED)
            .global(Blog.GLOBAL_POSTS_DELETED, post -> post.status() == PostStatus.DELETED)
            .build();

    static final SharedCounts<Comment> COMMENTS = SharedCounts.over(Comment.SCHEMA)
            .user(Blog.USER_COMMENTS, Comment::authorId)
            .global(Blog.GLOBAL_COMMENTS)
            .build();

    private BlogFigures() {
    }
}
