package io.tally.writer.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Timestamps;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import io.tally.core.blog.User;
import io.tally.writer.http.Json;

/** The contract's JSON shapes of the blog entities, fields in the documented order. */
public final class BlogJson {
    private BlogJson() {
    }

    public static ObjectNode user(User user) {
        ObjectNode json = Json.object();
        json.put("userId", user.userId());
        json.put("name", user.name());
        json.put("email", user.email());
        json.put("createdAt", Timestamps.format(user.createdAt()));
        json.put("updatedAt", Timestamps.format(user.updatedAt()));
        json.put("version", user.version());
        return json;
    }

    public static ObjectNode post(Post post) {
        ObjectNode json = Json.object();
        json.put("postId", post.postId());
        json.put("userId", post.userId());
        json.put("title", post.title());
        json.put("body", post.body());
        json.put("status", post.status().value());
        json.put("createdAt", Timestamps.format(post.createdAt()));
        json.put("updatedAt", Timestamps.format(post.updatedAt()));
        json.put("version", post.version());
        return json;
    }

    public static ObjectNode comment(Comment comment) {
        ObjectNode json = Json.object();
        json.put("commentId", comment.commentId());
        json.put("postId", comment.postId());
        json.put("authorId", comment.authorId());
        json.put("text", comment.text());
        json.put("createdAt", Timestamps.format(comment.createdAt()));
        return json;
    }
}
