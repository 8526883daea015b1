package io.tally.core.store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of a query that asked for {@code limit + 1} items. DynamoDB returns a {@code LastEvaluatedKey}
 * whenever it stops at the limit, even when nothing follows, which would end every list with an empty page;
 * the extra item tells whether a next page exists.
 *
 * @param items   at most {@code limit} items
 * @param nextKey where the next page starts, or null for the last page
 */
public record QueryPage(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> nextKey) {

    public static QueryPage of(QueryResponse response, int limit, Set<String> keyAttributes) {
        List<Map<String, AttributeValue>> items = response.items();
        if (items.size() > limit) {
            List<Map<String, AttributeValue>> page = items.subList(0, limit);
            return new QueryPage(page, keyOf(page.get(limit - 1), keyAttributes));
        }
        // Fewer items than asked for with a LastEvaluatedKey: the query stopped at its 1 MB cap.
        Map<String, AttributeValue> next = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? response.lastEvaluatedKey() : null;
        return new QueryPage(items, next);
    }

    /** The key attributes of an item: where a page that ends at it continues. */
    public static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item, Set<String> keyAttributes) {
        Map<String, AttributeValue> key = new HashMap<>();
        for (String attribute : keyAttributes) {
            AttributeValue value = item.get(attribute);
            if (value == null) {
                throw new IllegalStateException("item lacks key attribute '" + attribute + "'");
            }
            key.put(attribute, value);
        }
        return key;
    }
}
