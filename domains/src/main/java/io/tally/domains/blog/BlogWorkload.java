package io.tally.domains.blog;

import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The blog's part of the random workload: posts (with their post refs) created, edited and soft-deleted, comments added
 * and deleted, as the writer service writes them; posts picked with the workload's skew, as hot keys are.
 */
final class BlogWorkload extends AbstractWorkloadPart {
    private final Map<String, Post> posts = new LinkedHashMap<>();
    private final List<String> postIds = new ArrayList<>();
    private final Map<String, Comment> comments = new LinkedHashMap<>();
    private final List<String> commentIds = new ArrayList<>();

    BlogWorkload(WorkloadContext context) {
        super(context, "p", 56, true);
    }

    @Override
    public void step() {
        int roll = random.nextInt(56);
        if (roll < 18 || posts.isEmpty()) {
            createPost();
        } else if (roll < 26) {
            changePost(random.nextInt(4) == 0 ? PostStatus.DELETED : PostStatus.UPDATED);
        } else if (roll < 50) {
            addComment();
        } else {
            deleteComment();
        }
    }

    private void createPost() {
        String userId = context.user();
        String postId = id();
        Post post = new Post(postId, userId, "Title " + postId, "Body", PostStatus.CREATED, now(), now(), 1);
        posts.put(postId, post);
        postIds.add(postId);
        put(new PostRef(postId, userId, now()).toItem());
        put(post.toItem());
    }

    private void changePost(PostStatus status) {
        Post post = posts.get(context.pick(postIds));
        if (post.status() == PostStatus.DELETED) {
            return;
        }
        Post changed = new Post(post.postId(), post.userId(), "Edited " + context.nextId("e"), post.body(), status,
                post.createdAt(), now(), post.version() + 1);
        posts.put(post.postId(), changed);
        put(changed.toItem());
    }

    private void addComment() {
        Post post = posts.get(context.pick(postIds));
        if (post.status() == PostStatus.DELETED) {
            return;
        }
        String commentId = context.nextId("c");
        Comment comment = new Comment(commentId, post.postId(), post.userId(), post.createdAt(), context.user(), "Nice",
                now());
        comments.put(commentId, comment);
        commentIds.add(commentId);
        put(comment.toItem());
    }

    private void deleteComment() {
        if (commentIds.isEmpty()) {
            return;
        }
        String commentId = commentIds.remove(random.nextInt(commentIds.size()));
        delete(comments.remove(commentId).key());
    }
}
