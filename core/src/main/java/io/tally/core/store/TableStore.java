package io.tally.core.store;

import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a domain's store is built on: the client and the table. A store owns its requests (pure builders) and their
 * calls, and turns a failed condition into the client's answer; routes reach the table only through stores.
 */
public abstract class TableStore {
    protected final DynamoDbClient dynamo;
    protected final String table;

    protected TableStore(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
    }

    /** The item at the key, read consistently; null when there is none. */
    protected Map<String, AttributeValue> find(io.tally.core.Key key) {
        Map<String, AttributeValue> item = dynamo.getItem(Requests.consistentGet(table, key)).item();
        return item == null || item.isEmpty() ? null : item;
    }
}
