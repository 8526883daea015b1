package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.PrunerPositionItem;
import io.tally.core.StreamShards;
import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Removes from derived items the watermark attributes of stream shards that can no longer deliver a record, and
 * deletes those shards' cursor items ({@code docs/exactly-once.md}, "Watermark growth"). Every shard that ever wrote
 * a derived item left a {@code wm_<token>} attribute on it; shards roll over every few hours, so without pruning a
 * busy item grows past 1 KB (and costs a second write unit per write) within days.
 *
 * <p>A watermark may go once its shard is gone from {@code DescribeStream}: the stream keeps records 24 hours and
 * lists every shard that still holds any, so a shard that is not listed can never deliver a record again, and its
 * watermark can never be consulted. A token is judged gone only by a listing made after the item holding it was read
 * (a shard is listed from its creation, before it can write anything), and once gone it stays gone. The tokens of the
 * stream ARNs themselves count as live too ({@code StreamHandler} keys its watermark by the ARN). An item's stale
 * watermarks are removed in UpdateItems of at most 100 ({@link WatermarkRemovals}), each on the condition that the
 * values it removes are unchanged, so that nothing written since the read is lost; a cursor by a conditional
 * DeleteItem.
 *
 * <p>A pass does not begin while a cursor updated within a day names a shard the listing does not hold
 * ({@link UnlistedCursors}): the stream processor and the listing would then know a shard by different ids, and the
 * pass would delete live watermarks. It throws {@link Refused} instead, before removing anything.
 *
 * <p>Incremental: the pass scans the table page by page and prunes each page as it goes, so a run that stops early has
 * done its share, and it stores its position after every page ({@link PrunerPositionItem}), so that the next run
 * continues the pass ({@link #resume}). Cost: two eventually consistent scans of the table per pass (the check of the
 * cursors, then the pass).
 */
public final class WatermarkPruner {
    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPruner.class);

    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final String table;
    private final Clock clock;

    public WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table) {
        this(dynamo, streams, table, Clock.systemUTC());
    }

    WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, Clock clock) {
        this.dynamo = dynamo;
        this.streams = streams;
        this.table = table;
        this.clock = clock;
    }

    /** How a run ended. */
    public enum Outcome {
        /** The pass reached the end of the table. */
        COMPLETE,
        /** Out of time: the position is stored, the next run continues. */
        PAUSED,
        /** The last pass began less than the interval ago: nothing to do yet. */
        NOT_DUE
    }

    /**
     * What one run did. {@code itemsFailed} counts the items DynamoDB refused to change for their own sake (an item
     * over its limits, a transaction conflict): the pass went on past them; {@code failedKeys} names the first
     * {@value PruneTally#FAILED_KEYS_REPORTED} of them, the log every one with its error.
     */
    public record Report(long itemsScanned, long itemsPruned, long watermarksRemoved, long itemsChangedMeanwhile,
                         long cursorsRemoved, long itemsFailed, List<Key> failedKeys, int liveTokens,
                         Outcome outcome) {
        public Report {
            failedKeys = List.copyOf(failedKeys);
        }

        /** One line for the logs. */
        public String summary() {
            return outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": scanned " + itemsScanned
                    + " items; removed " + watermarksRemoved + " watermarks of gone shards from " + itemsPruned
                    + " items and " + cursorsRemoved + " cursors of gone shards; " + itemsChangedMeanwhile
                    + " items changed meanwhile, left to the next pass; " + itemsFailed
                    + " items DynamoDB refused to change" + (failedKeys.isEmpty() ? "" : " (" + failedKeys.stream()
                            .map(key -> key.pk() + " / " + key.sk()).collect(Collectors.joining(", "))
                            + (itemsFailed > failedKeys.size() ? ", ..." : "") + ")")
                    + "; " + liveTokens + " live shards and streams";
        }
    }

    public Report prune() {
        return prune(scanned -> { });
    }

    /**
     * A whole pass from the start of the table, now (the operator's command).
     *
     * @param progress told the number of items scanned so far, after every page
     */
    public Report prune(LongConsumer progress) {
        return run(null, () -> true, progress);
    }

    /**
     * A scheduled run: continues the stored pass, or begins one if the last began at least {@code interval} ago, and
     * stops storing its position once {@code mayContinue} says so (checked after every page).
     */
    public Report resume(Duration interval, BooleanSupplier mayContinue, LongConsumer progress) {
        Map<String, AttributeValue> position = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(PrunerPositionItem.KEY.toAttributeMap())).item();
        if (position != null && position.containsKey(PrunerPositionItem.NEXT_PK)) {
            Map<String, AttributeValue> after = Map.of(TableSchema.PK, position.get(PrunerPositionItem.NEXT_PK),
                    TableSchema.SK, position.get(PrunerPositionItem.NEXT_SK));
            return run(after, mayContinue, progress);
        }
        AttributeValue started = position == null ? null : position.get(PrunerPositionItem.PASS_STARTED);
        if (started != null && Instant.parse(started.s()).plus(interval).isAfter(clock.instant())) {
            return new PruneTally().report(0, Outcome.NOT_DUE);
        }
        return run(null, mayContinue, progress);
    }

    private Report run(Map<String, AttributeValue> after, BooleanSupplier mayContinue, LongConsumer progress) {
        ShardTokens tokens = new ShardTokens(liveTokens());
        if (after == null) {
            refuseIfACursorNamesAnUnlistedShard(tokens.live());
            storePassBegun();
        }
        PruneTally tally = new PruneTally();
        PagePruner pages = new PagePruner(dynamo, table, tokens, this::liveTokens, tally);
        Map<String, AttributeValue> next = after;
        do {
            Map<String, AttributeValue> start = next;
            ScanResponse page = dynamo.scan(r -> r.tableName(table).exclusiveStartKey(start));
            pages.prune(page.items());
            long scanned = tally.scanned(page.count());
            next = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            if (next == null) {
                storePassCompleted();
            } else {
                storePassAfter(next);
            }
            progress.accept(scanned);
        } while (next != null && mayContinue.getAsBoolean());
        Report report = tally.report(tokens.live().size(), next == null ? Outcome.COMPLETE : Outcome.PAUSED);
        LOG.info("watermark pruning {}", report.summary());
        return report;
    }

    /**
     * Before a pass begins: a cursor updated within a day that names a shard the listing does not hold means that the
     * stream processor's shard ids and the listing's differ, and the pass would delete live watermarks.
     *
     * @throws Refused naming those shards; nothing is pruned
     */
    private void refuseIfACursorNamesAnUnlistedShard(Set<String> live) {
        List<String> unlisted = UnlistedCursors.find(dynamo, table, live, clock.instant());
        if (!unlisted.isEmpty()) {
            String reason = "watermark pruning refused: the cursors of shards " + unlisted + " were updated within "
                    + UnlistedCursors.RECENT.toHours() + " hours, yet the stream's listing does not hold them; the"
                    + " stream processor's shard ids and DescribeStream's differ, and pruning would delete live"
                    + " watermarks. See docs/exactly-once.md, \"When a guard trips\"";
            LOG.error(reason);
            throw new Refused(reason);
        }
    }

    /** A pass refused before it removed anything: the stream processor's shard ids and the listing's differ. */
    public static final class Refused extends IllegalStateException {
        Refused(String reason) {
            super(reason);
        }
    }

    /** Stores that a pass begins now: no position yet. */
    private void storePassBegun() {
        storePosition("SET #t = :t, #b = :now REMOVE #p, #s", Map.of("#b", PrunerPositionItem.PASS_STARTED),
                Map.of(":now", AttributeValue.fromS(clock.instant().toString())));
    }

    /** Stores that the pass has done every item up to this key. */
    private void storePassAfter(Map<String, AttributeValue> after) {
        storePosition("SET #t = :t, #p = :p, #s = :s", Map.of(),
                Map.of(":p", after.get(TableSchema.PK), ":s", after.get(TableSchema.SK)));
    }

    /** Stores that the pass reached the end of the table now. */
    private void storePassCompleted() {
        storePosition("SET #t = :t, #c = :now REMOVE #p, #s", Map.of("#c", PrunerPositionItem.PASS_COMPLETED),
                Map.of(":now", AttributeValue.fromS(clock.instant().toString())));
    }

    private void storePosition(String update, Map<String, String> names, Map<String, AttributeValue> values) {
        Map<String, String> allNames = new HashMap<>(names);
        allNames.putAll(Map.of("#t", TableSchema.ENTITY_TYPE, "#p", PrunerPositionItem.NEXT_PK,
                "#s", PrunerPositionItem.NEXT_SK));
        Map<String, AttributeValue> allValues = new HashMap<>(values);
        allValues.put(":t", AttributeValue.fromS(PrunerPositionItem.TYPE.attributeValue()));
        dynamo.updateItem(r -> r.tableName(table).key(PrunerPositionItem.KEY.toAttributeMap())
                .updateExpression(update).expressionAttributeNames(allNames).expressionAttributeValues(allValues));
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
            for (Shard shard : StreamShards.listed(streams, streamArn)) {
                tokens.add(Watermarks.token(shard.shardId()));
            }
        }
        return tokens;
    }
}
