package io.tally.stream.rebuild;

import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Removes from derived items the watermark attributes of stream shards that can no longer deliver a record
 * ({@code docs/exactly-once.md}, "Watermark growth"). Every shard that ever wrote a derived item left a
 * {@code wm_<token>} attribute on it; shards roll over every few hours, so without pruning a busy item grows past
 * 1 KB (and costs a second write unit per write) within days.
 *
 * <p>A watermark may go once its shard is gone from {@code DescribeStream}: the stream keeps records 24 hours and
 * lists every shard that still holds any, so a shard that is not listed can never deliver a record again, and its
 * watermark can never be consulted. The shards are listed before and after the scan, and only attributes whose token
 * matches neither listing are removed: a shard created while the scan runs is in the second listing. The tokens of
 * the stream ARNs themselves count as live too ({@code StreamHandler} keys its watermark by the ARN). Each removal is
 * one UpdateItem per item, on the condition that every removed value is unchanged, so that nothing written since the
 * scan is lost.
 *
 * <p>Cost: one full scan of the table per run, eventually consistent (a watermark read a little stale is re-checked
 * by the condition). Running it once a day keeps a busy item to about two days of watermarks.
 */
public final class WatermarkPruner {
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final String table;

    public WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table) {
        this.dynamo = dynamo;
        this.streams = streams;
        this.table = table;
    }

    /** What one run did. */
    public record Report(long itemsScanned, long itemsPruned, long watermarksRemoved, long itemsChangedMeanwhile,
                         int liveTokens) {
    }

    public Report prune() {
        return prune(scanned -> { });
    }

    /** @param progress told the number of items scanned so far, after every page */
    public Report prune(LongConsumer progress) {
        Set<String> before = liveTokens();
        List<Map<String, AttributeValue>> candidates = new ArrayList<>();
        long scanned = 0;
        for (var page : dynamo.scanPaginator(r -> r.tableName(table))) {
            for (Map<String, AttributeValue> item : page.items()) {
                Map<String, AttributeValue> stale = staleWatermarks(item, before);
                if (!stale.isEmpty()) {
                    // Only the key and the stale watermarks: a large table must not be held in memory.
                    Map<String, AttributeValue> candidate = new HashMap<>(stale);
                    candidate.put(TableSchema.PK, item.get(TableSchema.PK));
                    candidate.put(TableSchema.SK, item.get(TableSchema.SK));
                    candidates.add(candidate);
                }
            }
            scanned += page.count();
            progress.accept(scanned);
        }
        Set<String> live = new HashSet<>(before);
        live.addAll(liveTokens());

        long pruned = 0;
        long removed = 0;
        long changed = 0;
        for (Map<String, AttributeValue> item : candidates) {
            Optional<UpdateItemRequest> request = removal(table, item, live);
            if (request.isEmpty()) {
                continue;
            }
            try {
                dynamo.updateItem(request.get());
                pruned++;
                removed += request.get().expressionAttributeNames().size();
            } catch (ConditionalCheckFailedException e) {
                // A removed value changed after the scan: leave the item to the next run.
                changed++;
            }
        }
        return new Report(scanned, pruned, removed, changed, live.size());
    }

    /** The tokens of every shard the table's streams list now, and of the stream ARNs themselves. */
    Set<String> liveTokens() {
        Set<String> tokens = new HashSet<>();
        List<String> streamArns = new ArrayList<>();
        String afterStream = null;
        do {
            String exclusiveStart = afterStream;
            ListStreamsResponse response = streams.listStreams(r -> r.tableName(table)
                    .exclusiveStartStreamArn(exclusiveStart));
            response.streams().forEach(stream -> streamArns.add(stream.streamArn()));
            afterStream = response.lastEvaluatedStreamArn();
        } while (afterStream != null);
        for (String streamArn : streamArns) {
            tokens.add(Watermarks.token(streamArn));
            String startAfter = null;
            do {
                String exclusiveStart = startAfter;
                DescribeStreamResponse response = streams.describeStream(r -> r.streamArn(streamArn)
                        .exclusiveStartShardId(exclusiveStart));
                for (Shard shard : response.streamDescription().shards()) {
                    tokens.add(Watermarks.token(shard.shardId()));
                }
                startAfter = response.streamDescription().lastEvaluatedShardId();
            } while (startAfter != null);
        }
        return tokens;
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
     * The UpdateItem that removes an item's stale watermarks on the condition that each still has the value the scan
     * read; empty when it has none.
     */
    static Optional<UpdateItemRequest> removal(String table, Map<String, AttributeValue> item, Set<String> liveTokens) {
        Map<String, AttributeValue> stale = staleWatermarks(item, liveTokens);
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        List<String> removes = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, AttributeValue> watermark : stale.entrySet()) {
            names.put("#w" + i, watermark.getKey());
            values.put(":w" + i, watermark.getValue());
            removes.add("#w" + i);
            conditions.add("#w" + i + " = :w" + i);
            i++;
        }
        return Optional.of(UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(TableSchema.PK, item.get(TableSchema.PK), TableSchema.SK, item.get(TableSchema.SK)))
                .updateExpression("REMOVE " + String.join(", ", removes))
                .conditionExpression(String.join(" AND ", conditions))
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build());
    }
}
