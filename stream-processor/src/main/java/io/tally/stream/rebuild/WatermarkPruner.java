package io.tally.stream.rebuild;

import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.StreamShards;
import io.tally.core.TableSchema;
import io.tally.core.read.BatchReads;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.rebuild.PrunerPosition.Phase;
import io.tally.stream.rebuild.PrunerPosition.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
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
 * stream ARNs themselves count as live too ({@code StreamHandler} keys its watermark by the ARN). An item keeps up to
 * {@value WatermarkRemovals#KEPT_GONE_WATERMARKS} stale watermarks (a removal costs a write of the whole item, a kept
 * one only its bytes); once it holds more, they are all removed, in UpdateItems of at most 100 ({@link WatermarkRemovals}), each on the condition that the
 * values it removes are unchanged, so that nothing written since the read is lost; a cursor by a conditional
 * DeleteItem. An item DynamoDB refuses to change for its own sake is reported and passed ({@link PagePruner},
 * {@link ItemFailures}); throttling, server errors and errors about the table stop the run.
 *
 * <p>A pass does not prune while a cursor updated within a day names a shard the listing does not hold
 * ({@link UnlistedCursors}): the stream processor and the listing would then know a shard by different ids, and the
 * pass would delete live watermarks. Each pass therefore first checks every cursor, and throws {@link Refused},
 * before removing anything, if it finds one.
 *
 * <p>Incremental and parallel: each of the pass's two phases (the check, then the pruning) is a scan in
 * {@code segments} parallel segments ({@link SegmentedScan}), page by page; each segment stores its position after
 * every page ({@link PrunerPosition}), so a run that stops early has done its share and the next run continues the
 * pass ({@link #resume}) with the same number of segments. Cost: two eventually consistent scans of the table per
 * pass.
 */
public final class WatermarkPruner {
    /** Attempts at each read of the cursor registry's check ({@link #again}). */
    static final int CHECK_ATTEMPTS = 5;
    /** Segments of a pass when none are given: four pages in flight at once, each with its removals. */
    public static final int DEFAULT_SEGMENTS = 4;
    /** The most segments a pass may have: each is a thread and a page of up to 1 MB in memory. */
    public static final int MAX_SEGMENTS = 32;

    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPruner.class);

    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final String table;
    private final int segments;
    private final Clock clock;
    private final PrunerPosition position;

    public WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table) {
        this(dynamo, streams, table, DEFAULT_SEGMENTS);
    }

    /** @param segments parallel scan segments of a pass that begins (one in progress keeps its own), 1 to 32 */
    public WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, int segments) {
        this(dynamo, streams, table, segments, Clock.systemUTC());
    }

    /** @param clock when the pass runs: its position's times, the age of a recent cursor (a simulation's own) */
    public WatermarkPruner(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, int segments,
                           Clock clock) {
        if (segments < 1 || segments > MAX_SEGMENTS) {
            throw new IllegalArgumentException("segments must be from 1 to " + MAX_SEGMENTS + ", not " + segments);
        }
        this.dynamo = dynamo;
        this.streams = streams;
        this.table = table;
        this.segments = segments;
        this.clock = clock;
        this.position = new PrunerPosition(dynamo, table, clock);
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
     * over its limits, a transaction conflict): the pass went on past them; {@code failedKeys} names the first ten
     * of them, the log every one with its error.
     */
    public record Report(long itemsScanned, long itemsPruned, long watermarksRemoved, long itemsChangedMeanwhile,
                         long cursorsRemoved, long partialsFolded, long itemsFailed, List<Key> failedKeys,
                         int liveTokens, Outcome outcome) {
        public Report {
            failedKeys = List.copyOf(failedKeys);
        }

        /** One line for the logs. */
        public String summary() {
            return outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": scanned " + itemsScanned
                    + " items; removed " + watermarksRemoved + " watermarks of gone shards from " + itemsPruned
                    + " items and " + cursorsRemoved + " cursors of gone shards; folded " + partialsFolded
                    + " partials whose shards are all gone into their items; " + itemsChangedMeanwhile
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
        State stored = position.read();
        return run(new State(null, List.of(), stored.started(), stored.cursorsRegistered()), () -> true, progress);
    }

    /**
     * A scheduled run: continues the stored pass, or begins one if the last began at least {@code interval} ago, and
     * stops once {@code mayContinue} says so (asked by each segment after every page), its position stored.
     */
    public Report resume(Duration interval, BooleanSupplier mayContinue, LongConsumer progress) {
        State state = position.read();
        if (!state.inProgress() && state.started() != null && state.started().plus(interval).isAfter(clock.instant())) {
            return new PruneTally().report(0, Outcome.NOT_DUE);
        }
        return run(state, mayContinue, progress);
    }

    private Report run(State stored, BooleanSupplier mayContinue, LongConsumer progress) {
        ShardTokens tokens = new ShardTokens(liveTokens());
        PruneTally tally = new PruneTally();
        try {
            State state = stored.inProgress() ? stored : position.begin(segments, stored.cursorsRegistered());
            if (state.phase() == Phase.CHECK) {
                if (state.cursorsRegistered()) {
                    checkRegisteredCursors(tokens);
                } else if (!checkCursors(state, tokens, mayContinue)) {
                    return finish(tally, tokens, Outcome.PAUSED);
                }
                state = position.beginPruning(state);
                if (!mayContinue.getAsBoolean()) {
                    return finish(tally, tokens, Outcome.PAUSED);
                }
            }
            PagePruner pages = new PagePruner(dynamo, table, tokens, this::liveTokens, tally,
                    position::cursorsUnregistered, clock.instant());
            Object progressLock = new Object();
            boolean complete = SegmentedScan.run(state.segments(),
                    (segment, total, start) -> dynamo.scan(r -> r.tableName(table).segment(segment)
                            .totalSegments(total).exclusiveStartKey(start)),
                    items -> {
                        pages.prune(items);
                        // Under a lock: the consumer sees one call at a time, with counts that only grow.
                        synchronized (progressLock) {
                            progress.accept(tally.scanned(items.size()));
                        }
                        return true;
                    },
                    position::store, mayContinue);
            if (complete) {
                position.complete();
            }
            return finish(tally, tokens, complete ? Outcome.COMPLETE : Outcome.PAUSED);
        } catch (Refused e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("watermark pruning stopped, the next run continues from the stored position: {}; so far {}",
                    e.toString(), tally.report(tokens.live().size(), Outcome.PAUSED).summary());
            throw e;
        }
    }

    private static Report finish(PruneTally tally, ShardTokens tokens, Outcome outcome) {
        Report report = tally.report(tokens.live().size(), outcome);
        LOG.info("watermark pruning {}", report.summary());
        return report;
    }

    /**
     * The pass's first phase, once a pass has entered every cursor in the cursor registry: a Query of each of the
     * registry's partitions finds the cursors, and those of shards the listing does not hold are read (a BatchGetItem
     * per 100) and judged as {@link #checkCursors} judges them. A few hundred reads at 1,000 shards, not a scan.
     *
     * @throws Refused as {@link #checkCursors}
     */
    private void checkRegisteredCursors(ShardTokens tokens) {
        List<Map<String, AttributeValue>> entries = new ArrayList<>();
        for (String partition : ShardCursorItem.registryPartitions()) {
            // Each partition read whole again after a failure: the check is made in one run, not resumed.
            entries.addAll(again(() -> {
                List<Map<String, AttributeValue>> items = new ArrayList<>();
                dynamo.queryPaginator(r -> r.tableName(table).keyConditionExpression("#pk = :pk")
                        .expressionAttributeNames(Map.of("#pk", TableSchema.PK))
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))).items()
                        .forEach(items::add);
                return items;
            }));
        }
        // A cursor of a shard created after the run's listing is judged by a listing made after it.
        tokens.judge(entries, this::liveTokens);
        List<Map<String, AttributeValue>> keys = entries.stream()
                .map(ShardTokens::registeredToken)
                .filter(token -> !tokens.live().contains(token))
                .map(token -> ShardCursorItem.key(token).toAttributeMap())
                .toList();
        List<Map<String, AttributeValue>> cursors = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += 100) {
            List<Map<String, AttributeValue>> chunk = keys.subList(from, Math.min(keys.size(), from + 100));
            cursors.addAll(again(() -> BatchReads.getAll(dynamo, table, BatchGetItemRequest.builder()
                    .requestItems(Map.of(table, KeysAndAttributes.builder().keys(chunk).build())).build())));
        }
        List<String> unlisted = UnlistedCursors.unlisted(cursors, tokens.live(), clock.instant());
        if (!unlisted.isEmpty()) {
            refuse(unlisted);
        }
    }

    /**
     * A read of the registry check, made again after a failure (throttling, an internal error, any other) up to
     * {@value #CHECK_ATTEMPTS} times in all, pausing a little longer each time: the check is a few dozen reads made in
     * one run, and one that fails makes the whole run fail.
     */
    private static <T> T again(Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.get();
            } catch (RuntimeException e) {
                // A read changes nothing: whatever stopped it, it is made again.
                if (attempt == CHECK_ATTEMPTS) {
                    throw e;
                }
                LockSupport.parkNanos(Duration.ofMillis(20L << attempt).toNanos());
            }
        }
    }

    /**
     * The pass's first phase, until a pass has entered every cursor in the cursor registry: a cursor updated within a
     * day that names a shard the listing does not hold means that the stream processor's shard ids and the listing's
     * differ, and the pass would delete live watermarks. Found by a scan of the table, in segments.
     *
     * @return whether every segment has been checked (false: out of time, the next run continues the check)
     * @throws Refused naming those shards; the pass is forgotten, so the next run begins one again
     */
    private boolean checkCursors(State state, ShardTokens tokens, BooleanSupplier mayContinue) {
        Instant now = clock.instant();
        List<String> unlisted = Collections.synchronizedList(new ArrayList<>());
        boolean checked = SegmentedScan.run(state.segments(),
                (segment, total, start) -> dynamo.scan(UnlistedCursors.page(table, segment, total, start)),
                cursors -> {
                    // A cursor of a shard created after the run's listing is judged by a listing made after it.
                    tokens.judge(cursors, this::liveTokens);
                    List<String> found = UnlistedCursors.unlisted(cursors, tokens.live(), now);
                    unlisted.addAll(found);
                    return found.isEmpty();
                },
                position::store, mayContinue);
        if (!unlisted.isEmpty()) {
            refuse(unlisted);
        }
        return checked;
    }

    private void refuse(List<String> unlisted) {
        {
            position.abandon();
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
