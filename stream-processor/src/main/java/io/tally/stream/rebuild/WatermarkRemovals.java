package io.tally.stream.rebuild;

import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The requests that remove an item's watermarks of gone shards ({@link WatermarkPruner}): one UpdateItem per chunk
 * of at most {@link #MAX_WATERMARKS_PER_REQUEST} watermarks, each on the condition that the watermarks it removes
 * still hold the values the scan read, and only those.
 *
 * <p>Why chunks: a condition expression may hold at most {@link #MAX_CONDITION_OPERATORS} operators, and each
 * watermark's {@code #w = :w} and the {@code AND} before it are two; an expression may be at most 4 KB. A single
 * request for all of an item's stale watermarks was refused ({@code ValidationException}) past 150 of them, for
 * every pass, so such an item was never pruned again. Chunks of 100 use at most 199 operators and about 1.6 KB of
 * condition; the lengths are counted as the chunk is built, so a chunk also ends before either expression would
 * pass {@link #MAX_EXPRESSION_LENGTH}. The chunks are independent: a refused condition (a watermark that moved since
 * the read) leaves that chunk's watermarks to the next pass and the other chunks still go.
 *
 * <p>Why an item keeps a few: a watermark of a gone shard is never read again (no record of that shard can be
 * delivered), so it costs only its bytes, about 57 each; removing it costs a write of the whole item. Most items are
 * written by one shard or a few and never again once those are gone (a post's projection, a day's downloads), and each
 * such removal was a write unit paid once a shard per item it touched: at full batches, about 0.22 units a record, a
 * third and more of the floor (docs/exactly-once.md, "Write units at full batches"). So an item keeps up to
 * {@link #KEPT_GONE_WATERMARKS} watermarks of gone shards, and once it holds more, all of them go in one pass: an item
 * written in every shard generation pays one removal every {@code KEPT_GONE_WATERMARKS + 1} gone shards, and no item
 * carries more than that many of them (beside those of shards still listed) past a pass.
 */
final class WatermarkRemovals {
    /** Watermarks one request removes at most: 199 operators of the 300 a condition may hold. */
    static final int MAX_WATERMARKS_PER_REQUEST = 100;
    /** DynamoDB's limit on the operators (comparisons, AND, OR, ...) of one condition expression. */
    static final int MAX_CONDITION_OPERATORS = 300;
    /** The longest update or condition expression a request is given: well within DynamoDB's 4 KB. */
    static final int MAX_EXPRESSION_LENGTH = 3_072;

    /**
     * Watermarks of gone shards an item keeps: the pruner removes them only when an item holds more (and then all of
     * them). Bounds an item by {@code KEPT_GONE_WATERMARKS x 57} bytes more than the watermarks of its listed shards.
     */
    static final int KEPT_GONE_WATERMARKS = 2;

    private static final String REMOVE = "REMOVE ";
    private static final String AND = " AND ";
    private static final String COMMA = ", ";

    private WatermarkRemovals() {
    }

    /** The watermark attributes of an item whose token is not live, with their values, by name. */
    static Map<String, AttributeValue> staleWatermarks(Map<String, AttributeValue> item, Set<String> liveTokens) {
        Map<String, AttributeValue> stale = new TreeMap<>();
        item.forEach((name, value) -> {
            if (Watermarks.isWatermark(name) && !liveTokens.contains(name.substring(Watermarks.PREFIX.length()))) {
                stale.put(name, value);
            }
        });
        return stale;
    }

    /**
     * The UpdateItems that remove an item's stale watermarks, in chunks, each on the condition that each of its
     * watermarks still has the value the scan read; none when the item has at most {@link #KEPT_GONE_WATERMARKS}
     * stale watermarks.
     */
    static List<UpdateItemRequest> removals(String table, Map<String, AttributeValue> item, Set<String> liveTokens) {
        Map<String, AttributeValue> key = Map.of(TableSchema.PK, item.get(TableSchema.PK),
                TableSchema.SK, item.get(TableSchema.SK));
        Map<String, AttributeValue> stale = staleWatermarks(item, liveTokens);
        if (stale.size() <= KEPT_GONE_WATERMARKS) {
            return List.of();
        }
        List<UpdateItemRequest> requests = new ArrayList<>();
        Chunk chunk = new Chunk();
        for (Map.Entry<String, AttributeValue> watermark : stale.entrySet()) {
            if (!chunk.takes()) {
                requests.add(chunk.request(table, key));
                chunk = new Chunk();
            }
            chunk.add(watermark.getKey(), watermark.getValue());
        }
        if (!chunk.isEmpty()) {
            requests.add(chunk.request(table, key));
        }
        return requests;
    }

    /** The operators of a condition as DynamoDB counts them here: each comparison and each AND. */
    static int conditionOperators(String condition) {
        return condition.split(" = ", -1).length - 1 + condition.split(AND, -1).length - 1;
    }

    /** One request's watermarks, with the lengths its expressions would have. */
    private static final class Chunk {
        private final Map<String, String> names = new HashMap<>();
        private final Map<String, AttributeValue> values = new HashMap<>();
        private final StringBuilder update = new StringBuilder(REMOVE);
        private final StringBuilder condition = new StringBuilder();

        boolean isEmpty() {
            return names.isEmpty();
        }

        /** Whether one more watermark fits: within the count, and both expressions within their length. */
        boolean takes() {
            if (names.size() >= MAX_WATERMARKS_PER_REQUEST) {
                return false;
            }
            String name = "#w" + names.size();
            String clause = name + " = :w" + names.size();
            return update.length() + COMMA.length() + name.length() <= MAX_EXPRESSION_LENGTH
                    && condition.length() + AND.length() + clause.length() <= MAX_EXPRESSION_LENGTH;
        }

        void add(String attribute, AttributeValue value) {
            int i = names.size();
            if (i > 0) {
                update.append(COMMA);
                condition.append(AND);
            }
            names.put("#w" + i, attribute);
            values.put(":w" + i, value);
            update.append("#w").append(i);
            condition.append("#w").append(i).append(" = :w").append(i);
        }

        UpdateItemRequest request(String table, Map<String, AttributeValue> key) {
            return UpdateItemRequest.builder()
                    .tableName(table)
                    .key(key)
                    .updateExpression(update.toString())
                    .conditionExpression(condition.toString())
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values)
                    .build();
        }
    }
}
