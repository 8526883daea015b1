package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.CursorRegistry;
import io.tally.stream.engine.DerivedWrites;
import io.tally.stream.engine.Watermarks;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * What the watermark pruner does with one page of its scan: judges the page's shard tokens, folds the partials whose
 * shards are all gone into their shared items ({@link PartialFold}), removes each other item's watermarks of gone
 * shards once it
 * holds more than {@value WatermarkRemovals#KEPT_GONE_WATERMARKS} ({@link WatermarkRemovals}) and deletes the cursors of gone shards, each on the condition that what it removes is
 * unchanged since the read. Thread-safe: the scan's segments share one.
 *
 * <p>A request DynamoDB refuses for the item's own sake ({@link ItemFailures}) is counted and logged with the item's
 * key, and the page goes on with the next item; any other failure is thrown, and the pass stops before it stores a
 * position past this page.
 */
final class PagePruner {
    /** A shard token's form ({@code ShardToken}: 16 characters of lowercase base32). */
    private static final Pattern TOKEN = Pattern.compile("[a-z2-7]{16}");
    private static final DomainRegistry REGISTRY = DomainRegistry.load();

    private final DynamoDbClient dynamo;
    private final String table;
    private final ShardTokens tokens;
    private final Supplier<Set<String>> listing;
    private final PruneTally tally;
    private final Runnable unregisteredCursor;
    private final Instant now;

    /**
     * @param unregisteredCursor told of a recent cursor of a gone shard that has no registry entry
     * @param now                the run's time, by the pruner's clock
     */
    PagePruner(DynamoDbClient dynamo, String table, ShardTokens tokens, Supplier<Set<String>> listing,
               PruneTally tally, Runnable unregisteredCursor, Instant now) {
        this.dynamo = dynamo;
        this.table = table;
        this.tokens = tokens;
        this.listing = listing;
        this.tally = tally;
        this.unregisteredCursor = unregisteredCursor;
        this.now = now;
    }

    void prune(List<Map<String, AttributeValue>> page) {
        tokens.judge(page, listing);
        // The partials whose shards are all gone, by base item (a base item's partials share its partition key: a page holds them
        // side by side), folded together once the page's other items are done.
        Map<Key, List<Map<String, AttributeValue>>> partials = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : page) {
            if (isPartialOfGoneShards(item)) {
                partials.computeIfAbsent(PartialKeys.baseOf(Key.of(item)), base -> new ArrayList<>()).add(item);
                continue;
            }
            forItem(item, () -> {
                if (ShardTokens.isCursor(item)) {
                    deleteCursorOfGoneShard(item);
                } else if (ShardTokens.isRegistryEntry(item)) {
                    deleteEntryOfGoneShard(item);
                } else {
                    removeStaleWatermarks(item);
                }
            });
        }
        partials.values().forEach(this::foldAll);
    }

    /** Runs the work of one item; a failure of the item itself (too large, ...) is tallied, any other thrown. */
    private void forItem(Map<String, AttributeValue> item, Runnable work) {
        try {
            work.run();
        } catch (SdkException e) {
            if (!ItemFailures.isTheItems(e)) {
                throw e;
            }
            tally.failed(Key.of(item), e);
        }
    }

    /**
     * Folds the partials of one base item whose shards are all gone: together, {@value PartialFold#MOST_TOGETHER} at a time
     * ({@link PartialFold#together}: one transaction, two write units for each partial and two for the base item,
     * where one at a time costs four a partial); a group that cannot go together, or whose transaction is refused (a
     * partial written or folded since the read), is folded one partial at a time, each meeting its own refusal.
     */
    private void foldAll(List<Map<String, AttributeValue>> partials) {
        for (int from = 0; from < partials.size(); from += PartialFold.MOST_TOGETHER) {
            List<Map<String, AttributeValue>> group = partials.subList(from,
                    Math.min(partials.size(), from + PartialFold.MOST_TOGETHER));
            Optional<TransactWriteItemsRequest> together = PartialFold.together(table, group);
            if (together.isPresent() && foldedTogether(together.get(), group)) {
                continue;
            }
            group.forEach(partial -> forItem(partial, () -> fold(partial)));
        }
    }

    /**
     * @return false when the transaction was refused (a partial changed since the read, or a conflict) or failed for an
     *         item's sake: nothing was folded, and the partials are folded one at a time
     * @throws SdkException when the table throttled the transaction, or failed otherwise than for an item's sake: the
     *                      pass stops there, as a single fold's failure stops it
     */
    private boolean foldedTogether(TransactWriteItemsRequest transaction, List<Map<String, AttributeValue>> group) {
        try {
            dynamo.transactWriteItems(transaction);
        } catch (TransactionCanceledException e) {
            if (e.cancellationReasons().stream().anyMatch(reason -> reason.code() != null
                    && (reason.code().contains("Throttl") || reason.code().contains("ThroughputExceeded")))) {
                throw e;
            }
            return false;
        } catch (SdkException e) {
            if (!ItemFailures.isTheItems(e)) {
                throw e;
            }
            return false;
        }
        group.forEach(partial -> tally.partial(true));
        Map<String, AttributeValue> names = new HashMap<>();
        group.forEach(names::putAll);
        // Folded: a failure of this clean-up is the base item's, tallied, and the pass goes on (as after a single fold).
        forItem(group.get(0), () -> removeZeroFamilyCounters(names));
        return true;
    }

    /**
     * Removes the item's stale watermarks chunk by chunk, if it holds more than it keeps. A chunk refused by its condition (a watermark moved since
     * the read) is left to the next pass; the other chunks still go. A chunk refused otherwise ends the item: the
     * chunks removed before it are counted, and the failure is thrown.
     */
    private void removeStaleWatermarks(Map<String, AttributeValue> item) {
        long removed = 0;
        boolean changedMeanwhile = false;
        try {
            for (UpdateItemRequest request : WatermarkRemovals.removals(table, item, tokens.live())) {
                try {
                    dynamo.updateItem(request);
                    removed += request.expressionAttributeNames().size();
                } catch (ConditionalCheckFailedException e) {
                    changedMeanwhile = true;
                }
            }
        } finally {
            tally.item(removed, changedMeanwhile);
        }
    }

    /**
     * Whether the item is a partial whose every shard is gone: an item of a shared type whose sort key ends with the
     * mark and a lineage's token, that carries watermarks (each judged against a listing made after the item was read),
     * none of a shard the listing still holds. The mark alone proves nothing: a base item's sort key may hold it (a tag's
     * name is free text). A partial a live shard of its lineage still writes is kept, its watermarks of gone shards
     * removed as any item's.
     */
    private boolean isPartialOfGoneShards(Map<String, AttributeValue> item) {
        String token = PartialKeys.partialToken(Key.of(item));
        if (token == null || !TOKEN.matcher(token).matches()) {
            return false;
        }
        List<String> shards = item.keySet().stream().filter(Watermarks::isWatermark)
                .map(name -> name.substring(Watermarks.PREFIX.length())).toList();
        if (shards.isEmpty() || shards.stream().anyMatch(tokens.live()::contains)) {
            return false;
        }
        AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
        return type != null && type.s() != null && REGISTRY.derivedType(type.s()).filter(DerivedType::isShared)
                .isPresent();
    }

    /**
     * Folds a partial whose shards are all gone into its base item, step by step ({@link PartialFold}); a step refused by its
     * condition (the partial was written since the read, or folded by another pass) leaves the rest to the next pass.
     */
    private void fold(Map<String, AttributeValue> partial) {
        for (TransactWriteItemsRequest step : PartialFold.steps(table, partial)) {
            try {
                dynamo.transactWriteItems(step);
            } catch (TransactionCanceledException e) {
                if (e.cancellationReasons().stream().noneMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                    throw e;
                }
                tally.partial(false);
                return;
            }
        }
        tally.partial(true);
        removeZeroFamilyCounters(partial);
    }

    /**
     * Removes from the base item the counters of a family (a tag's, named at run time) that the fold left at zero, as the
     * engine does after its own writes ({@link DerivedWrites#zeroRemovals}: each on the condition that it is still
     * zero): a tag linked through one shard's partial and unlinked through another's would otherwise stay on the base
     * item at zero for good. A removal refused (the counter moved meanwhile) is simply not made.
     */
    private void removeZeroFamilyCounters(Map<String, AttributeValue> partial) {
        DerivedType type = REGISTRY.derivedType(partial.get(TableSchema.ENTITY_TYPE).s()).orElseThrow();
        List<String> family = partial.keySet().stream().filter(name -> !DerivedType.isReserved(name)
                && type.counterFamilies().stream().anyMatch(name::startsWith)).sorted().toList();
        if (family.isEmpty()) {
            return;
        }
        Key base = PartialKeys.baseOf(Key.of(partial));
        Map<String, AttributeValue> now = dynamo.getItem(r -> r.tableName(table).key(base.toAttributeMap())
                .consistentRead(true)).item();
        List<String> zeros = family.stream().filter(name -> now != null && now.get(name) != null
                && now.get(name).n() != null && new BigDecimal(now.get(name).n()).signum() == 0).toList();
        for (UpdateItemRequest removal : DerivedWrites.zeroRemovals(table, base, zeros)) {
            try {
                dynamo.updateItem(removal);
            } catch (ConditionalCheckFailedException e) {
                // Moved meanwhile: it counts something again.
            }
        }
    }

    /**
     * Deletes the cursor of a shard that is gone, if it is unchanged since it was read; enters a live shard's cursor
     * that is not yet in the cursor registry (one written by an engine before the registry).
     */
    private void deleteCursorOfGoneShard(Map<String, AttributeValue> cursor) {
        String token = ShardTokens.cursorToken(cursor);
        if (tokens.live().contains(token)) {
            AttributeValue shardId = cursor.get(ShardCursorItem.SHARD_ID);
            if (CursorRegistry.needsEntry(cursor) && shardId != null && shardId.s() != null) {
                // A failure stops the pass as any other does: a pass that completes has entered every cursor it met.
                dynamo.putItem(CursorRegistry.entry(table, shardId.s(), token, now));
                try {
                    dynamo.updateItem(CursorRegistry.mark(table, token));
                } catch (ConditionalCheckFailedException e) {
                    // Deleted meanwhile.
                }
            }
            return;
        }
        if (CursorRegistry.needsEntry(cursor) && UnlistedCursors.updatedWithin(cursor, now)) {
            // A recent cursor of a shard the listing does not hold that the registry's check could not see (its
            // registration failed): kept, and the next pass checks the cursors with a scan again, which refuses.
            unregisteredCursor.run();
            return;
        }
        AttributeValue updatedAt = cursor.get(ShardCursorItem.UPDATED_AT);
        try {
            dynamo.deleteItem(r -> {
                r.tableName(table).key(Key.of(cursor).toAttributeMap()).expressionAttributeNames(Map.of("#u",
                        ShardCursorItem.UPDATED_AT));
                if (updatedAt == null) {
                    r.conditionExpression("attribute_not_exists(#u)");
                } else {
                    r.conditionExpression("#u = :u").expressionAttributeValues(Map.of(":u", updatedAt));
                }
            });
            tally.cursorRemoved();
        } catch (ConditionalCheckFailedException e) {
            // The cursor was written after the read: left to the next pass, with its registry entry.
            return;
        }
        deleteEntry(ShardCursorItem.registryKey(token));
    }

    /**
     * Deletes the cursor registry's entry of a shard that is gone, once its cursor is gone too (deleted with it
     * otherwise): an entry must outlive its cursor, or the registry's check would not see the cursor. No stream
     * processor writes the cursor of a gone shard again (its batches are refused before any write).
     */
    private void deleteEntryOfGoneShard(Map<String, AttributeValue> entry) {
        String token = ShardTokens.registeredToken(entry);
        if (tokens.live().contains(token)) {
            return;
        }
        Map<String, AttributeValue> cursor = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(ShardCursorItem.key(token).toAttributeMap())).item();
        if (cursor == null || cursor.isEmpty()) {
            deleteEntry(Key.of(entry));
        }
    }

    private void deleteEntry(Key entry) {
        try {
            dynamo.deleteItem(r -> r.tableName(table).key(entry.toAttributeMap())
                    .conditionExpression("attribute_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", TableSchema.PK)));
        } catch (ConditionalCheckFailedException e) {
            // Deleted meanwhile.
        }
    }
}
