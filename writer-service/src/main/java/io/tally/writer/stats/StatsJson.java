package io.tally.writer.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Timestamps;
import io.tally.core.blog.Blog;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.domains.Domains;
import io.tally.writer.http.Json;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The contract's JSON shapes of the read side, fields in the documented order. A derived item that does not
 * exist yet, or lacks a counter, reads as zero: it only means the stream processor has not counted anything
 * there (yet).
 */
final class StatsJson {
    private StatsJson() {
    }

    /** {@code {"userId", "posts", "comments", ...}}; {@code item} is the UserStats item or null. */
    static ObjectNode userStats(String userId, Map<String, AttributeValue> item) {
        check(item, Domains.USER_STATS.entityType());
        ObjectNode json = Json.object();
        json.put("userId", userId);
        for (String counter : Domains.USER_STATS.counters()) {
            json.put(counter, counter(item, counter));
        }
        return json;
    }

    /** {@code {"postId", "comments"}}; {@code item} is the post's projection or null. */
    static ObjectNode postStats(String postId, Map<String, AttributeValue> item) {
        check(item, Blog.POST_PROJECTION.entityType());
        ObjectNode json = Json.object();
        json.put("postId", postId);
        json.put("comments", counter(item, Blog.Projection.COMMENTS));
        return json;
    }

    /** {@code {"users", "posts": {"created", "updated", "deleted"}, "comments", "items", "completed"}}: the shards summed. */
    static ObjectNode globalStats(List<Map<String, AttributeValue>> shards) {
        shards.forEach(shard -> check(shard, Domains.GLOBAL_STATS.entityType()));
        ObjectNode json = Json.object();
        json.put("users", sum(shards, Blog.GLOBAL_USERS));
        ObjectNode posts = json.putObject("posts");
        posts.put("created", sum(shards, Blog.GLOBAL_POSTS_CREATED));
        posts.put("updated", sum(shards, Blog.GLOBAL_POSTS_UPDATED));
        posts.put("deleted", sum(shards, Blog.GLOBAL_POSTS_DELETED));
        json.put("comments", sum(shards, Blog.GLOBAL_COMMENTS));
        json.put("items", sum(shards, Catalogue.GLOBAL_ITEMS));
        json.put("completed", sum(shards, Catalogue.GLOBAL_COMPLETED));
        return json;
    }

    /** A status-index projection: {@code {"postId", "userId", "title", "status", "createdAt", "updatedAt", "comments"}}. */
    static ObjectNode post(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.POST_PROJECTION.entityType());
        ObjectNode json = Json.object();
        json.put("postId", Items.string(item, Blog.Projection.POST_ID));
        json.put("userId", Items.string(item, Blog.Projection.USER_ID));
        json.put("title", Items.string(item, Blog.Projection.TITLE));
        json.put("status", Items.string(item, Blog.Projection.STATUS));
        json.put("createdAt", Timestamps.format(Items.instant(item, Blog.Projection.CREATED_AT)));
        json.put("updatedAt", Timestamps.format(Items.instant(item, Blog.Projection.UPDATED_AT)));
        json.put("comments", counter(item, Blog.Projection.COMMENTS));
        return json;
    }

    /** A selector entry: {@code {"itemId", "title", "score"}}, the title null when the item has none. */
    static ObjectNode selectorItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Catalogue.SELECTOR_ENTRY.entityType());
        ObjectNode json = Json.object();
        json.put("itemId", Items.string(item, Catalogue.Entry.ITEM_ID));
        json.put("title", Items.optionalString(item, Catalogue.Entry.TITLE));
        json.put("score", Items.number(item, Catalogue.Entry.SCORE));
        return json;
    }

    private static long counter(Map<String, AttributeValue> item, String name) {
        return item == null || !item.containsKey(name) ? 0 : Items.number(item, name);
    }

    private static long sum(List<Map<String, AttributeValue>> shards, String name) {
        long sum = 0;
        for (Map<String, AttributeValue> shard : shards) {
            sum = Math.addExact(sum, counter(shard, name));
        }
        return sum;
    }

    /** A present item must be of the expected kind, so that a key mix-up shows as an error, not as numbers. */
    private static void check(Map<String, AttributeValue> item, EntityType expected) {
        if (item != null) {
            Items.expectType(item, expected);
        }
    }
}
