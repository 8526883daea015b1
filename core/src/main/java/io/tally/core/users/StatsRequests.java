package io.tally.core.users;

import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.DerivedReads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** Pure builders of the reads of the two derived items every domain counts in; tested by comparing requests. */
final class StatsRequests {
    private StatsRequests() {
    }

    /** D1: a user's stats item. */
    static GetItemRequest userStats(String table, String userId, DomainRegistry registry) {
        return DerivedReads.get(table, Users.USER_STATS.key(userId),
                DerivedReads.counters(Users.USER_STATS, registry.counters(Users.USER_STATS)));
    }

    /** Whether the user was ever written (users are never deleted): tells "no stats yet" from "no such user". */
    static GetItemRequest user(String table, String userId) {
        return DerivedReads.exists(table, Users.key(userId));
    }

    /** D3: every shard of the global totals in one request ({@link ShardSettings#MAX} keeps it within 100 keys). */
    static BatchGetItemRequest globalStats(String table, int shards, DomainRegistry registry) {
        Map<String, String> names = new HashMap<>();
        String projection = DerivedReads.projection(
                DerivedReads.counters(Users.GLOBAL_STATS, registry.counters(Users.GLOBAL_STATS)), names);
        List<Map<String, AttributeValue>> keys = IntStream.range(0, shards)
                .mapToObj(shard -> Users.globalStatsKey(shard).toAttributeMap())
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
}
