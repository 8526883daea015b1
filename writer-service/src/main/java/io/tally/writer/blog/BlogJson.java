package io.tally.writer.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Items;
import io.tally.core.Timestamps;
import io.tally.core.blog.Blog;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import io.tally.core.blog.User;
import io.tally.core.http.Json;
import io.tally.writer.stats.StatsJson;
import java.util.Map;
import java.util.function.ToLongFunction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The contract's JSON shapes of the blog, fields in the documented order. Derived items render by the rules of
 * {@link StatsJson}: a counter not there yet reads as zero.
 */
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

    /** {@code {"postId", "comments"}}: the projection's counters; {@code item} is the projection or null. */
    public static ObjectNode postStats(String postId, Map<String, AttributeValue> item) {
        StatsJson.check(item, Blog.POST_PROJECTION.entityType());
        ObjectNode json = Json.object();
        json.put("postId", postId);
        for (String counter : Blog.POST_PROJECTION.counters()) {
            json.put(counter, StatsJson.counter(item, counter));
        }
        return json;
    }

    /** A status-index projection: {@code {"postId", "userId", "title", "status", "createdAt", "updatedAt", "comments"}}. */
    public static ObjectNode projection(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.POST_PROJECTION.entityType());
        ObjectNode json = Json.object();
        json.put("postId", Items.string(item, Blog.Projection.POST_ID));
        json.put("userId", Items.string(item, Blog.Projection.USER_ID));
        json.put("title", Items.string(item, Blog.Projection.TITLE));
        json.put("status", Items.string(item, Blog.Projection.STATUS));
        json.put("createdAt", Timestamps.format(Items.instant(item, Blog.Projection.CREATED_AT)));
        json.put("updatedAt", Timestamps.format(Items.instant(item, Blog.Projection.UPDATED_AT)));
        json.put("comments", StatsJson.counter(item, Blog.Projection.COMMENTS));
        return json;
    }

    /**
     * The blog's part of {@code GET /stats/global}: {@code "users", "posts": {"created", "updated", "deleted"},
     * "comments"}. A {@link io.tally.writer.stats.GlobalStatsFields}.
     */
    public static void globalStats(ObjectNode json, ToLongFunction<String> total) {
        json.put("users", total.applyAsLong(Blog.GLOBAL_USERS));
        ObjectNode posts = json.putObject("posts");
        posts.put("created", total.applyAsLong(Blog.GLOBAL_POSTS_CREATED));
        posts.put("updated", total.applyAsLong(Blog.GLOBAL_POSTS_UPDATED));
        posts.put("deleted", total.applyAsLong(Blog.GLOBAL_POSTS_DELETED));
        json.put("comments", total.applyAsLong(Blog.GLOBAL_COMMENTS));
    }
}
