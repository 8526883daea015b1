package io.tally.core.store;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * Priming of a DynamoDB client's request path before a SnapStart snapshot: one read of a key no item has, so that the
 * snapshot holds the client's request marshalling, signing, endpoint resolution, response parsing and HTTP client
 * loaded and initialised, and the first request after a restore does not pay for them. The read changes nothing and
 * costs half a read unit. It may fail (no network, no grant, no table yet): priming only saves time, so a failure is
 * logged and otherwise ignored. A connection it leaves open is not trusted after a restore: the SDK retries a request
 * whose connection was reset.
 */
public final class SdkPriming {
    /** The key of the read: no item has it (no entity's or derived item's partition key starts with {@code #}). */
    public static final Key NOTHING = new Key("#PRIMING#", "#PRIMING#");
    private static final Logger LOG = LoggerFactory.getLogger(SdkPriming.class);

    private SdkPriming() {
    }

    /** Reads {@link #NOTHING} of {@code table} (its partition key only); whether the read was answered. */
    public static boolean readNothing(DynamoDbClient dynamo, String table) {
        try {
            dynamo.getItem(GetItemRequest.builder().tableName(table).key(NOTHING.toAttributeMap())
                    .projectionExpression("#pk").expressionAttributeNames(Map.of("#pk", TableSchema.PK)).build());
            return true;
        } catch (RuntimeException e) {
            LOG.warn("SnapStart priming of the DynamoDB client failed, so the first request after a restore pays for"
                    + " its initialisation: {}", e.toString());
            return false;
        }
    }
}
