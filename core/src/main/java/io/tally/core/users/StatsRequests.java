package io.tally.core.users;

import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.SharedReads;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** Pure builders of the reads of the two derived items every domain counts in; tested by comparing requests. */
final class StatsRequests {
    private StatsRequests() {
    }

    /** D1: the first page of a user's stats item whole, its base item and its per-shard partials. */
    static QueryRequest userStats(String table, String userId, DomainRegistry registry) {
        return SharedReads.query(table, Users.USER_STATS.key(userId), userStatsAttributes(registry), null);
    }

    /** What a read of a user's stats names: the entity type and every counter a domain declares. */
    static List<String> userStatsAttributes(DomainRegistry registry) {
        return DerivedReads.counters(Users.USER_STATS, registry.counters(Users.USER_STATS));
    }

    /** What a read of the global totals names: the entity type and every counter a domain declares. */
    static List<String> globalStatsAttributes(DomainRegistry registry) {
        return DerivedReads.counters(Users.GLOBAL_STATS, registry.counters(Users.GLOBAL_STATS));
    }

    /** Whether the user was ever written (users are never deleted): tells "no stats yet" from "no such user". */
    static GetItemRequest user(String table, String userId) {
        return DerivedReads.exists(table, Users.key(userId));
    }

    /** D3: the first page of one slot of the global totals whole, its base item and its per-shard partials. */
    static QueryRequest globalStats(String table, int slot, DomainRegistry registry) {
        return SharedReads.query(table, Users.globalStatsKey(slot), globalStatsAttributes(registry), null);
    }
}
