package io.tally.writer.stats;

import io.tally.core.ShardSettings;
import io.tally.core.blog.BlogKeys;
import io.tally.core.domains.Domains;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** Pure builders of the reads of the two derived items every domain counts in; tested by comparing requests. */
final class StatsRequests {
    private StatsRequests() {
    }

    /** D1: a user's stats item. */
    static GetItemRequest userStats(String table, String userId) {
        return DerivedReads.get(table, Domains.USER_STATS.key(userId), DerivedReads.counters(Domains.USER_STATS));
    }

    /** Whether the user was ever written (users are never deleted): tells "no stats yet" from "no such user". */
    static GetItemRequest user(String table, String userId) {
        return DerivedReads.exists(table, BlogKeys.user(userId));
    }

    /** D3: every shard of the global totals in one request ({@link ShardSettings#MAX} keeps it within 100 keys). */
    static BatchGetItemRequest globalStats(String table, int shards) {
        Map<String, String> names = new HashMap<>();
        String projection = DerivedReads.projection(DerivedReads.counters(Domains.GLOBAL_STATS), names);
        List<Map<String, AttributeValue>> keys = IntStream.range(0, shards)
                .mapToObj(shard -> Domains.globalStatsKey(shard).toAttributeMap())
                .toList();
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(keys)
                        .projectionExpression(projection)
                        .expressionAttributeNames(names)
                        .consistentRead(true)
                        .build()))
                .build();
    }

    /**
     * The request for the keys a BatchGetItem left unprocessed (it may, when it runs into throughput limits),
     * or null when it processed all. DynamoDB returns them in the form of the original request, projection and
     * consistency included.
     */
    static BatchGetItemRequest unprocessed(BatchGetItemResponse response) {
        if (!response.hasUnprocessedKeys() || response.unprocessedKeys().values().stream()
                .allMatch(keys -> !keys.hasKeys() || keys.keys().isEmpty())) {
            return null;
        }
        return BatchGetItemRequest.builder().requestItems(response.unprocessedKeys()).build();
    }
}
