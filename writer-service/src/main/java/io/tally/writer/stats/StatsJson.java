package io.tally.writer.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.domains.Domains;
import io.tally.core.http.Json;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The contract's JSON shapes of the shared stats, fields in the documented order, and the rules every domain's
 * read side renders counters by. A derived item that does not exist yet, or lacks a counter, reads as zero: it
 * only means the stream processor has not counted anything there (yet).
 */
public final class StatsJson {
    private StatsJson() {
    }

    /** {@code {"userId", "posts", "comments", ...}}: the declared counters; {@code item} is the UserStats item or null. */
    static ObjectNode userStats(String userId, Map<String, AttributeValue> item) {
        check(item, Domains.USER_STATS.entityType());
        ObjectNode json = Json.object();
        json.put(Domains.USER_STATS_USER_ID, userId);
        for (String counter : Domains.USER_STATS.counters()) {
            json.put(counter, counter(item, counter));
        }
        return json;
    }

    /** The shards summed, each domain's part in turn: {@code {"users", "posts": {...}, "comments", "items", "completed"}}. */
    static ObjectNode globalStats(List<Map<String, AttributeValue>> shards, List<GlobalStatsFields> parts) {
        shards.forEach(shard -> check(shard, Domains.GLOBAL_STATS.entityType()));
        ObjectNode json = Json.object();
        parts.forEach(part -> part.render(json, counter -> sum(shards, counter)));
        return json;
    }

    /** A counter of a derived item; zero when the item or the counter is not there (yet). */
    public static long counter(Map<String, AttributeValue> item, String name) {
        return item == null || !item.containsKey(name) ? 0 : Items.number(item, name);
    }

    /** A present item must be of the expected kind, so that a key mix-up shows as an error, not as numbers. */
    public static void check(Map<String, AttributeValue> item, EntityType expected) {
        if (item != null) {
            Items.expectType(item, expected);
        }
    }

    private static long sum(List<Map<String, AttributeValue>> shards, String name) {
        long sum = 0;
        for (Map<String, AttributeValue> shard : shards) {
            sum = Math.addExact(sum, counter(shard, name));
        }
        return sum;
    }
}
