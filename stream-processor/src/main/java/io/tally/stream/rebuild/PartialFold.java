package io.tally.stream.rebuild;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Folds a partial whose shards are all gone into its shared item's base item, exactly once
 * ({@code docs/exactly-once.md}, "Bounded bookkeeping"): its counters are added to the base item and the partial is
 * deleted, in one transaction conditioned on the partial's write version ({@code wv}, which every engine write moves)
 * and one of its watermarks, so that a fold that ran before (the partial is gone, or made anew since by a later shard of
 * its lineage) or a partial written since it was read (the version moved) changes nothing. Once every shard whose
 * watermark it holds is gone from {@code DescribeStream} no record of theirs can be delivered again, so those watermarks
 * will never be consulted again; folding keeps the number of partials of an item to the lineages that wrote it within
 * the stream's retention, and the base item written only by this fold and by its document's owner.
 *
 * <p>A partial with more counters than one update expression takes is folded in several transactions, each moving at
 * most {@value #COUNTERS_PER_STEP} counters from the partial to the base item (both conditioned on the version the
 * step before left), the last one deleting the partial. A fold cut short between two steps leaves the moved counters in
 * the base item and the rest in the partial: the sum is the same, and the next pass folds the rest. The partials of
 * one base item that a page of the pruner's scan holds are folded together, in one transaction ({@link #together}).
 * Pure: this builds the requests, {@link WatermarkPruner} sends them.
 */
final class PartialFold {
    /** Counters one step moves: two expressions of 100 names each stay far within DynamoDB's 4 KB and 300 operators. */
    static final int COUNTERS_PER_STEP = 100;
    /**
     * Partials folded in one transaction at most: with the base item's update, 25 of DynamoDB's 100 actions a
     * transaction, few enough that a partial written meanwhile (which cancels the whole transaction) costs little.
     */
    static final int MOST_TOGETHER = 24;

    private PartialFold() {
    }

    /** The fold's transactions, in order; each expects the write version the one before it left. */
    static List<TransactWriteItemsRequest> steps(String table, Map<String, AttributeValue> partial) {
        Key key = Key.of(partial);
        if (!PartialKeys.isPartial(key)) {
            throw new IllegalArgumentException("not a partial: " + key);
        }
        Key base = PartialKeys.baseOf(key);
        AttributeValue type = partial.get(TableSchema.ENTITY_TYPE);
        List<Map.Entry<String, AttributeValue>> all = new ArrayList<>(counters(partial).entrySet());
        long version = version(partial);
        List<TransactWriteItemsRequest> steps = new ArrayList<>();
        int from = 0;
        do {
            List<Map.Entry<String, AttributeValue>> chunk = all.subList(from, Math.min(all.size(), from + COUNTERS_PER_STEP));
            boolean last = from + COUNTERS_PER_STEP >= all.size();
            List<TransactWriteItem> items = new ArrayList<>(2);
            items.add(last ? deletePartial(table, partial, version) : movePartial(table, partial, version, chunk));
            if (!chunk.isEmpty()) {
                items.add(addToBase(table, base, type, chunk));
            }
            steps.add(TransactWriteItemsRequest.builder().transactItems(items).build());
            version++;
            from += COUNTERS_PER_STEP;
        } while (from < all.size());
        return steps;
    }

    /**
     * The partials of one base item folded in one transaction: the base item takes the sum of their counters, and each
     * partial is deleted on its write version. Transactional writes cost two write units an item (up to 1 KB), so
     * folding {@code n} partials together costs {@code 2(n + 1)} units where one at a time costs {@code 4n}: the
     * partials of a shared item that many shards write (a global slot, a day's downloads) come folded together. Empty
     * when one fold each is the way: fewer than two partials, more than {@value #MOST_TOGETHER}, or more counters than
     * one step moves.
     *
     * @param partials partials whose shards are all gone, all of the same base item
     */
    static Optional<TransactWriteItemsRequest> together(String table, List<Map<String, AttributeValue>> partials) {
        if (partials.size() < 2 || partials.size() > MOST_TOGETHER) {
            return Optional.empty();
        }
        Key base = null;
        AttributeValue type = null;
        Map<String, BigDecimal> sums = new TreeMap<>();
        List<TransactWriteItem> items = new ArrayList<>(partials.size() + 1);
        for (Map<String, AttributeValue> partial : partials) {
            Key key = Key.of(partial);
            if (!PartialKeys.isPartial(key)) {
                throw new IllegalArgumentException("not a partial: " + key);
            }
            if (base != null && !base.equals(PartialKeys.baseOf(key))) {
                throw new IllegalArgumentException("partials of different items: " + base + ", " + key);
            }
            base = PartialKeys.baseOf(key);
            type = partial.get(TableSchema.ENTITY_TYPE);
            counters(partial).forEach((name, value) -> sums.merge(name, new BigDecimal(value.n()), BigDecimal::add));
            items.add(deletePartial(table, partial, version(partial)));
        }
        if (sums.size() > COUNTERS_PER_STEP) {
            return Optional.empty();
        }
        List<Map.Entry<String, AttributeValue>> summed = new ArrayList<>();
        sums.forEach((name, sum) -> {
            if (sum.signum() != 0) {
                summed.add(Map.entry(name, AttributeValue.fromN(sum.toPlainString())));
            }
        });
        if (!summed.isEmpty()) {
            items.add(addToBase(table, base, type, summed));
        }
        return Optional.of(TransactWriteItemsRequest.builder().transactItems(items).build());
    }

    /** The partial's counters that are not zero, by name. */
    private static Map<String, AttributeValue> counters(Map<String, AttributeValue> partial) {
        Map<String, AttributeValue> counters = new TreeMap<>();
        partial.forEach((name, value) -> {
            if (!DerivedType.isReserved(name) && value.n() != null && !isZero(value.n())) {
                counters.put(name, value);
            }
        });
        return counters;
    }

    private static TransactWriteItem deletePartial(String table, Map<String, AttributeValue> partial, long version) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        String condition = versionCondition(partial, version, names, values);
        Delete.Builder delete = Delete.builder().tableName(table).key(Key.of(partial).toAttributeMap())
                .conditionExpression(condition)
                .expressionAttributeNames(names);
        if (!values.isEmpty()) {
            delete.expressionAttributeValues(values);
        }
        return TransactWriteItem.builder().delete(delete.build()).build();
    }

    private static TransactWriteItem movePartial(String table, Map<String, AttributeValue> partial, long version,
                                                 List<Map.Entry<String, AttributeValue>> chunk) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":one", AttributeValue.fromN("1"));
        List<String> remove = new ArrayList<>();
        for (int i = 0; i < chunk.size(); i++) {
            names.put("#c" + i, chunk.get(i).getKey());
            remove.add("#c" + i);
        }
        String condition = versionCondition(partial, version, names, values);
        return TransactWriteItem.builder().update(Update.builder().tableName(table)
                .key(Key.of(partial).toAttributeMap())
                .updateExpression("ADD #wv :one REMOVE " + String.join(", ", remove))
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build()).build();
    }

    private static TransactWriteItem addToBase(String table, Key base, AttributeValue type,
                                               List<Map.Entry<String, AttributeValue>> chunk) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#type", TableSchema.ENTITY_TYPE);
        names.put("#wv", TableSchema.WRITE_VERSION);
        values.put(":type", type);
        values.put(":one", AttributeValue.fromN("1"));
        List<String> add = new ArrayList<>();
        add.add("#wv :one");
        for (int i = 0; i < chunk.size(); i++) {
            names.put("#c" + i, chunk.get(i).getKey());
            values.put(":c" + i, chunk.get(i).getValue());
            add.add("#c" + i + " :c" + i);
        }
        return TransactWriteItem.builder().update(Update.builder().tableName(table).key(base.toAttributeMap())
                .updateExpression("SET #type = if_not_exists(#type, :type) ADD " + String.join(", ", add))
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .build()).build();
    }

    /**
     * The partial exists and holds this write version (a partial without one, never written by the engine, holds none;
     * a missing item would pass {@code attribute_not_exists} alone) and the first of the watermarks read on it. A shard
     * of the partial's lineage that writes it after a fold deleted it makes it anew, at write version 1 again; it never
     * holds a watermark of the partial read (those shards are all gone, which is why it was folded), so a pass that read
     * the partial before the fold cannot fold the new one as the old.
     */
    private static String versionCondition(Map<String, AttributeValue> partial, long version, Map<String, String> names,
                                           Map<String, AttributeValue> values) {
        names.put("#wv", TableSchema.WRITE_VERSION);
        names.put("#pk", TableSchema.PK);
        String condition = version == 0 ? "attribute_exists(#pk) AND attribute_not_exists(#wv)"
                : "attribute_exists(#pk) AND #wv = :wv";
        if (version != 0) {
            values.put(":wv", AttributeValue.fromN(Long.toString(version)));
        }
        Optional<String> watermark = partial.keySet().stream().filter(Watermarks::isWatermark).sorted().findFirst();
        if (watermark.isPresent()) {
            names.put("#wm", watermark.get());
            values.put(":wm", partial.get(watermark.get()));
            condition += " AND #wm = :wm";
        }
        return condition;
    }

    private static long version(Map<String, AttributeValue> item) {
        AttributeValue wv = item.get(TableSchema.WRITE_VERSION);
        return wv == null || wv.n() == null ? 0 : Long.parseLong(wv.n());
    }

    private static boolean isZero(String n) {
        return new BigDecimal(n).signum() == 0;
    }
}
