package io.tally.stream.fault;

import io.tally.stream.engine.SourceRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * The SPLIT mode's shards: each real shard re-cut into a parent and two children, delivered as the event source
 * mapping would (parent first) or as a replay from outside it would (any order).
 */
final class SplitShards {
    private SplitShards() {
    }

    /** A parent shard and its two children, as the records of one real shard re-cut. */
    record Family(List<SourceRecord> parent, List<SourceRecord> childA, List<SourceRecord> childB) {
    }

    /**
     * Splits each shard at a random record of its middle half: the records before it stay in a parent shard, the rest
     * go to two child shards by item (an item's records stay in order in one child, as DynamoDB routes them by key).
     */
    static List<Family> split(Map<String, List<SourceRecord>> stream, Random random) {
        List<Family> families = new ArrayList<>();
        for (Map.Entry<String, List<SourceRecord>> shard : stream.entrySet()) {
            List<SourceRecord> records = shard.getValue();
            int at = records.size() / 4 + random.nextInt(records.size() / 2 + 1);
            List<SourceRecord> parent = new ArrayList<>();
            List<SourceRecord> childA = new ArrayList<>();
            List<SourceRecord> childB = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                SourceRecord record = records.get(i);
                if (i < at) {
                    parent.add(reshard(record, shard.getKey() + "-parent"));
                } else if (Math.floorMod(record.keys().hashCode(), 2) == 0) {
                    childA.add(reshard(record, shard.getKey() + "-child-a"));
                } else {
                    childB.add(reshard(record, shard.getKey() + "-child-b"));
                }
            }
            families.add(new Family(parent, childA, childB));
        }
        return families;
    }

    /**
     * The records of each shard re-cut into {@code count} shards by item (an item's records stay in order in one
     * shard, as DynamoDB routes them by key), each named after its real shard: a stream of many shards, whose records
     * of different items reach the engine in any order and whose shards all write the shared derived items (the
     * global totals' slots, the days of all songs). Shards that get no record are left out.
     */
    static Map<String, List<SourceRecord>> many(Map<String, List<SourceRecord>> stream, int count) {
        Map<String, List<SourceRecord>> shards = new LinkedHashMap<>();
        for (Map.Entry<String, List<SourceRecord>> shard : stream.entrySet()) {
            for (SourceRecord record : shard.getValue()) {
                String id = shard.getKey() + "-of-" + count + "-" + Math.floorMod(record.keys().hashCode(), count);
                shards.computeIfAbsent(id, k -> new ArrayList<>()).add(reshard(record, id));
            }
        }
        return shards;
    }

    static SourceRecord reshard(SourceRecord record, String shardId) {
        return new SourceRecord(record.eventId(), record.eventName(), shardId, record.sequenceNumber(),
                record.approximateCreationTime(), record.keys(), record.oldImage(), record.newImage());
    }

    /**
     * In half of the families, as the mapping delivers a split: the parent completely, then its children one
     * invocation at a time in a random interleaving. In the other half, a replay from outside the mapping, which no
     * parent-first rule binds: the children completely before the parent, or the three interleaved (document
     * revisions must keep an older state out).
     *
     * @param delivery the delivery of one shard's records
     */
    static void deliver(Family family, Function<List<SourceRecord>, Delivery> delivery, Random random) {
        Delivery parent = delivery.apply(family.parent());
        List<Delivery> children = List.of(delivery.apply(family.childA()), delivery.apply(family.childB()));
        switch (random.nextInt(4)) {
            case 0, 1 -> {
                parent.run();
                interleave(children, random);
            }
            case 2 -> {
                interleave(children, random);
                parent.run();
            }
            default -> interleave(List.of(parent, children.get(0), children.get(1)), random);
        }
    }

    /** One invocation of a random shard at a time, until each is delivered. */
    static void interleave(List<Delivery> shards, Random random) {
        List<Delivery> left = new ArrayList<>(shards);
        left.removeIf(Delivery::done);
        while (!left.isEmpty()) {
            Delivery next = left.get(random.nextInt(left.size()));
            next.step();
            if (next.done()) {
                left.remove(next);
            }
        }
    }
}
