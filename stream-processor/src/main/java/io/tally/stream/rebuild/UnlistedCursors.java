package io.tally.stream.rebuild;

import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The shard cursors that a stream processor updated recently under a shard the stream's listing does not hold. A
 * stream processor keys its cursor and watermarks by the shard id its events deliver, the pruner judges shards by
 * {@code DescribeStream}'s ids: a cursor written within the last day names a shard that can still deliver records, so
 * if the listing does not hold it, the two ids differ, and pruning would delete watermarks that are live.
 *
 * <p>Found by a scan of the table filtered to cursor items (it reads the whole table: one more scan per pruning pass),
 * in segments, page by page, so that the check too stops when a run's time is up and continues in the next run.
 */
final class UnlistedCursors {
    /** Records stay in a stream 24 hours: a cursor updated within that span may belong to a shard still delivering. */
    static final Duration RECENT = Duration.ofHours(24);

    private UnlistedCursors() {
    }

    /** One page of a segment of the scan for cursors, after {@code start} (null: from the segment's start). */
    static ScanRequest page(String table, int segment, int segments, Map<String, AttributeValue> start) {
        return ScanRequest.builder().tableName(table).segment(segment).totalSegments(segments)
                .exclusiveStartKey(start)
                .filterExpression("begins_with(#pk, :prefix) AND #sk = :sk")
                .projectionExpression("#pk, #sk, #shard, #updated, #type")
                .expressionAttributeNames(Map.of("#pk", TableSchema.PK, "#sk", TableSchema.SK,
                        "#shard", ShardCursorItem.SHARD_ID, "#updated", ShardCursorItem.UPDATED_AT,
                        "#type", TableSchema.ENTITY_TYPE))
                .expressionAttributeValues(Map.of(":prefix", AttributeValue.fromS(ShardCursorItem.PREFIX),
                        ":sk", AttributeValue.fromS(ShardCursorItem.SORT_KEY)))
                .build();
    }

    /**
     * The shard ids (or tokens, for a cursor without one) of the cursors among {@code items} updated within
     * {@link #RECENT} of {@code now} whose token {@code live} does not hold.
     */
    static List<String> unlisted(List<Map<String, AttributeValue>> items, Set<String> live, Instant now) {
        List<String> unlisted = new ArrayList<>();
        for (Map<String, AttributeValue> cursor : items) {
            if (ShardTokens.isCursor(cursor) && !live.contains(ShardTokens.cursorToken(cursor))
                    && updatedWithin(cursor, now)) {
                AttributeValue shardId = cursor.get(ShardCursorItem.SHARD_ID);
                unlisted.add(shardId != null && shardId.s() != null ? shardId.s() : ShardTokens.cursorToken(cursor));
            }
        }
        return unlisted;
    }

    /** Whether the cursor was updated within {@link #RECENT} of {@code now} (a time it cannot read counts as recent). */
    static boolean updatedWithin(Map<String, AttributeValue> cursor, Instant now) {
        AttributeValue updatedAt = cursor.get(ShardCursorItem.UPDATED_AT);
        if (updatedAt == null || updatedAt.s() == null) {
            return false;
        }
        try {
            return Instant.parse(updatedAt.s()).isAfter(now.minus(RECENT));
        } catch (DateTimeParseException e) {
            // Not a time this engine writes: count it as recent, so that a cursor of unknown age stops the pass.
            return true;
        }
    }
}
