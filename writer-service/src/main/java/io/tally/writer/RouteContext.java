package io.tally.writer;

import io.tally.core.Ids;
import io.tally.core.Timestamps;
import io.tally.writer.http.Cursors;
import java.time.Clock;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** What every route needs: the table, the clock, the id generator and the cursor signer. */
public record RouteContext(DynamoDbClient dynamo, String table, Clock clock, Ids ids, Cursors cursors) {

    /** The server's current time with millisecond precision, as the contract's timestamps carry. */
    public Instant now() {
        return Timestamps.truncate(clock.instant());
    }
}
