package io.tally.domains.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Items;
import io.tally.core.Timestamps;
import io.tally.core.users.User;
import io.tally.core.http.Json;
import io.tally.core.read.StatsJson;
import java.util.Map;
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
}
