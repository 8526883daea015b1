package io.tally.core.http;

import io.tally.core.Ids;
import io.tally.core.ShardSettings;
import io.tally.core.Timestamps;
import java.time.Clock;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a domain's routes and stores are built from. It lives below the domains, beside the router, so that the
 * domain packages depend on it and the root package that assembles them depends on the domains, never the
 * reverse. Only a domain's wiring hands {@link #dynamo} to its stores; routes reach the table through them.
 *
 * @param shards the stream processor's shard counts: the read side reads the shards it writes
 */
public record RouteContext(DynamoDbClient dynamo, String table, Clock clock, Ids ids, Cursors cursors,
                           ShardSettings shards) {

    /** The server's current time with millisecond precision, as the contract's timestamps carry. */
    public Instant now() {
        return Timestamps.truncate(clock.instant());
    }
}
