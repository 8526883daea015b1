package io.tally.core.users;

import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.ApiException;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.SharedReads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The reads of the shared stats items, each whole: its base item and the per-shard partials beside it, summed
 * ({@link SharedReads}). A stats item is missing both for a subject with nothing counted yet and for one that never
 * existed; telling the two apart is done here, so that the route only renders.
 */
record StatsStore(DynamoDbClient dynamo, String table, DomainRegistry registry) {
    /**
     * The user's stats, or null when nothing is counted yet. Stats exist only for users who exist (users are never
     * deleted), so the user item is read only when there are no stats: a user never written is {@code not_found}.
     */
    Map<String, AttributeValue> userStats(String userId) {
        Map<String, AttributeValue> stats = SharedReads.whole(dynamo, table, Users.USER_STATS.key(userId),
                StatsRequests.userStatsAttributes(registry));
        if (stats == null && DerivedReads.found(dynamo.getItem(StatsRequests.user(table, userId))) == null) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return stats;
    }

    /** Every slot of the global totals that holds anything, each whole. */
    List<Map<String, AttributeValue>> globalStats(int slots) {
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (int slot = 0; slot < slots; slot++) {
            Map<String, AttributeValue> whole = SharedReads.whole(dynamo, table, Users.globalStatsKey(slot),
                    StatsRequests.globalStatsAttributes(registry));
            if (whole != null) {
                found.add(whole);
            }
        }
        return found;
    }
}
