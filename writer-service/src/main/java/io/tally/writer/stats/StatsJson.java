package io.tally.writer.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.DerivedSchema;
import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Timestamps;
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
        check(item, EntityType.USER_STATS);
        ObjectNode json = Json.object();
        json.put("userId", userId);
        for (String counter : DerivedSchema.UserStats.COUNTERS) {
            json.put(counter, counter(item, counter));
        }
        return json;
    }

    /** {@code {"postId", "comments"}}; {@code item} is the post's projection or null. */
    static ObjectNode postStats(String postId, Map<String, AttributeValue> item) {
        check(item, EntityType.POST_PROJECTION);
        ObjectNode json = Json.object();
        json.put("postId", postId);
        json.put("comments", counter(item, DerivedSchema.PostProjection.COMMENTS));
        return json;
    }

    /** {@code {"users", "posts": {"created", "updated", "deleted"}, "comments", "items", "completed"}}: the shards summed. */
    static ObjectNode globalStats(List<Map<String, AttributeValue>> shards) {
        shards.forEach(shard -> check(shard, EntityType.GLOBAL_STATS));
        ObjectNode json = Json.object();
        json.put("users", sum(shards, DerivedSchema.GlobalStats.USERS));
        ObjectNode posts = json.putObject("posts");
        posts.put("created", sum(shards, DerivedSchema.GlobalStats.POSTS_CREATED));
        posts.put("updated", sum(shards, DerivedSchema.GlobalStats.POSTS_UPDATED));
        posts.put("deleted", sum(shards, DerivedSchema.GlobalStats.POSTS_DELETED));
        json.put("comments", sum(shards, DerivedSchema.GlobalStats.COMMENTS));
        json.put("items", sum(shards, DerivedSchema.GlobalStats.ITEMS));
        json.put("completed", sum(shards, DerivedSchema.GlobalStats.COMPLETED));
        return json;
    }

    /** A status-index projection: {@code {"postId", "userId", "title", "status", "createdAt", "updatedAt", "comments"}}. */
    static ObjectNode post(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.POST_PROJECTION);
        ObjectNode json = Json.object();
        json.put("postId", Items.string(item, DerivedSchema.PostProjection.POST_ID));
        json.put("userId", Items.string(item, DerivedSchema.PostProjection.USER_ID));
        json.put("title", Items.string(item, DerivedSchema.PostProjection.TITLE));
        json.put("status", Items.string(item, DerivedSchema.PostProjection.STATUS));
        json.put("createdAt", Timestamps.format(Items.instant(item, DerivedSchema.PostProjection.CREATED_AT)));
        json.put("updatedAt", Timestamps.format(Items.instant(item, DerivedSchema.PostProjection.UPDATED_AT)));
        json.put("comments", counter(item, DerivedSchema.PostProjection.COMMENTS));
        return json;
    }

    /** A selector entry: {@code {"itemId", "title", "score"}}, the title null when the item has none. */
    static ObjectNode selectorItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.SELECTOR_ENTRY);
        ObjectNode json = Json.object();
        json.put("itemId", Items.string(item, DerivedSchema.SelectorEntry.ITEM_ID));
        json.put("title", Items.optionalString(item, DerivedSchema.SelectorEntry.TITLE));
        json.put("score", Items.number(item, DerivedSchema.SelectorEntry.SCORE));
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
