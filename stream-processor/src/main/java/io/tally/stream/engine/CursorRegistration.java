package io.tally.stream.engine;

import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * A claim's entry of its cursor in the cursor registry ({@link CursorRegistry}), when the cursor the claim wrote was not
 * entered yet: the entry, then the mark, once in a shard's life. A failure is logged and left to the next claim: the
 * registry serves the pruner's check, never a batch.
 */
final class CursorRegistration {
    private static final Logger LOG = LoggerFactory.getLogger(CursorRegistration.class);

    private final DynamoDbClient client;
    private final String tableName;

    CursorRegistration(DynamoDbClient client, String tableName) {
        this.client = client;
        this.tableName = tableName;
    }

    /** Enters the cursor of {@code shardId}, as the claim found it ({@code before}), if it is not yet. */
    void registerIfNeeded(String shardId, Map<String, AttributeValue> before, Instant now) {
        if (!CursorRegistry.needsEntry(before)) {
            return;
        }
        String token = Watermarks.token(shardId);
        try {
            client.putItem(CursorRegistry.entry(tableName, shardId, token, now));
            client.updateItem(CursorRegistry.mark(tableName, token));
        } catch (ConditionalCheckFailedException e) {
            // The cursor is gone (the pruner deleted it): nothing to mark.
        } catch (RuntimeException e) {
            // Any failure, not only the SDK's: the claim is written, and a batch must not be refused over the registry.
            LOG.warn("the cursor of shard {} could not be entered in the cursor registry; its next claim tries again",
                    shardId, e);
        }
    }
}
