package io.tally.core.users;

import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.ApiException;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The reads of the shared stats items. A stats item is missing both for a subject with nothing counted yet and
 * for one that never existed; telling the two apart, and finishing a batch that DynamoDB answered in part, is
 * done here, so that the route only renders.
 */
record StatsStore(DynamoDbClient dynamo, String table, DomainRegistry registry) {
    /** Calls of one BatchGetItem until every key is read; each retry asks only for the keys left over. */
    static final int MAX_BATCH_ATTEMPTS = BatchReads.MAX_ATTEMPTS;

    /**
     * The user's stats item, or null when nothing is counted yet. Stats exist only for users who exist (users
     * are never deleted), so the user item is read only when there are no stats: a user never written is
     * {@code not_found}.
     */
    Map<String, AttributeValue> userStats(String userId) {
        Map<String, AttributeValue> stats = DerivedReads.found(dynamo.getItem(StatsRequests.userStats(table, userId, registry)));
        if (stats == null && DerivedReads.found(dynamo.getItem(StatsRequests.user(table, userId))) == null) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return stats;
    }

    /** Every shard of the global totals that exists. */
    List<Map<String, AttributeValue>> globalStats(int shards) {
        return BatchReads.getAll(dynamo, table, StatsRequests.globalStats(table, shards, registry));
    }
}
