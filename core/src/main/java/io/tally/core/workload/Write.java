package io.tally.core.workload;

import io.tally.core.Key;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One base-item write of the workload: a put of {@code item}, or a delete of {@code key} when {@code item} is null.
 */
public record Write(Key key, Map<String, AttributeValue> item) {
    public static Write put(Map<String, AttributeValue> item) {
        return new Write(Key.of(item), item);
    }

    public static Write delete(Key key) {
        return new Write(key, null);
    }

    public boolean isDelete() {
        return item == null;
    }
}
