package io.tally.stream.fault;

import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.FixedStreamListing;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The GENERATIONS mode's shards: the stream's records cut, in stream order, into consecutive generations, and each
 * generation's records re-cut by partition key into the shards of its partitions (CRC-32 of the partition key, as
 * DynamoDB routes an item), so that an item's records stay in order in one shard of each generation and a partition's
 * shard of one generation is the parent of its shard in the next. Now and then the partitions split: a generation has
 * twice the partitions of the one before, and partition {@code q}'s parent is partition {@code q mod n} (CRC-32 mod
 * {@code 2n} mod {@code n} is CRC-32 mod {@code n}, so the parent held the item's earlier records). The listing
 * ({@link #listing}) holds the shards a stream would still list: those of the open generation and of the generations
 * closed less than {@link #RETENTION} ago.
 */
final class ShardGenerations {
    /** How long a stream keeps a record, and so lists a closed shard. */
    static final Duration RETENTION = Duration.ofHours(24);

    private final String streamArn;
    private final String table;
    /** Per generation, its partitions, the shards that got records, and when it closed (absent while open). */
    private final List<Integer> partitions = new ArrayList<>();
    private final Map<Integer, Set<String>> shardsOf = new TreeMap<>();
    private final Map<Integer, Instant> closedAt = new HashMap<>();

    ShardGenerations(String streamArn, String table) {
        this.streamArn = streamArn;
        this.table = table;
    }

    /**
     * The records of a stream (in stream order: by sequence number over its shards) cut into {@code count} runs of
     * consecutive records, of random lengths within a factor of two of each other.
     */
    static List<List<SourceRecord>> runs(Map<String, List<SourceRecord>> stream, int count, Random random) {
        List<SourceRecord> records = new ArrayList<>(stream.values().stream().flatMap(List::stream).toList());
        records.sort(Comparator.comparing(record -> new BigInteger(record.sequenceNumber())));
        double[] weights = new double[count];
        double total = 0;
        for (int i = 0; i < count; i++) {
            weights[i] = 1 + random.nextDouble();
            total += weights[i];
        }
        List<List<SourceRecord>> runs = new ArrayList<>();
        double sum = 0;
        int from = 0;
        for (int i = 0; i < count; i++) {
            sum += weights[i];
            int to = i == count - 1 ? records.size() : (int) Math.round(records.size() * sum / total);
            runs.add(records.subList(from, to));
            from = to;
        }
        return runs;
    }

    /** The shard of a partition in a generation, in the form of DynamoDB's shard ids. */
    static String shardId(int generation, int partition) {
        return String.format("shardId-%011d-%08x", 1_700_000_000L + generation, partition);
    }

    /** Whether the partitions split at a generation before {@code generation} (after the first). */
    boolean splitBefore(int generation) {
        for (int g = 1; g < Math.min(generation, partitions.size()); g++) {
            if (!partitions.get(g).equals(partitions.get(g - 1))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What the listing tells of a shard's parent (the engine's {@code ShardParents}): the parent of a shard of a
     * generation that kept its parent's partitions (a rollover); none in the first generation or after a split.
     */
    Optional<String> soleParent(String shardId) {
        String[] parts = shardId.split("-");
        int generation = (int) (Long.parseLong(parts[1]) - 1_700_000_000L);
        if (generation == 0 || generation >= partitions.size()
                || !partitions.get(generation).equals(partitions.get(generation - 1))) {
            return Optional.empty();
        }
        return Optional.of(shardId(generation - 1, Integer.parseInt(parts[2], 16)));
    }

    /**
     * Opens the next generation with {@code count} partitions: as many as the generation before, or twice as many
     * (a split of every partition).
     *
     * @return the generation's number
     */
    int open(int count) {
        int generation = partitions.size();
        if (generation > 0 && count != partitions.get(generation - 1) && count != 2 * partitions.get(generation - 1)) {
            throw new IllegalArgumentException("a generation keeps its parent's partitions or splits each in two");
        }
        partitions.add(count);
        shardsOf.put(generation, new TreeSet<>());
        return generation;
    }

    /** The records, in stream order, re-cut into the shards of a generation's partitions (those that get one). */
    Map<String, List<SourceRecord>> cut(int generation, List<SourceRecord> records) {
        Map<String, List<SourceRecord>> shards = new LinkedHashMap<>();
        for (SourceRecord record : records) {
            String pk = record.keys().get(TableSchema.PK).s();
            String id = shardId(generation, Shards.of(pk, partitions.get(generation)));
            shards.computeIfAbsent(id, k -> new ArrayList<>()).add(SplitShards.reshard(record, id));
        }
        shardsOf.get(generation).addAll(shards.keySet());
        return shards;
    }

    /** The generation's shards close now; their partitions go on in the next generation's. */
    void close(int generation, Instant now) {
        closedAt.put(generation, now);
    }

    /** The shards of the generations closed at least {@link #RETENTION} before {@code now}: gone from the listing. */
    Set<String> gone(Instant now) {
        Set<String> gone = new TreeSet<>();
        shardsOf.forEach((generation, ids) -> {
            if (!listed(generation, now)) {
                gone.addAll(ids);
            }
        });
        return gone;
    }

    /** How many generations are gone from the listing at {@code now}. */
    int generationsGone(Instant now) {
        return (int) shardsOf.keySet().stream().filter(generation -> !listed(generation, now)).count();
    }

    private boolean listed(int generation, Instant now) {
        Instant closed = closedAt.get(generation);
        return closed == null || closed.plus(RETENTION).isAfter(now);
    }

    /**
     * The stream as {@code DescribeStream} lists it at {@code now}: the shards of every generation that is open or
     * closed less than {@link #RETENTION} ago, each a child of its partition's parent in the generation before.
     */
    DynamoDbStreamsClient listing(Instant now) {
        List<Shard> listed = new ArrayList<>();
        shardsOf.forEach((generation, ids) -> {
            if (!listed(generation, now)) {
                return;
            }
            boolean closed = closedAt.containsKey(generation);
            for (String id : ids) {
                int partition = Integer.parseInt(id.substring(id.lastIndexOf('-') + 1), 16);
                listed.add(Shard.builder().shardId(id)
                        .parentShardId(generation == 0 ? null
                                : shardId(generation - 1, partition % partitions.get(generation - 1)))
                        .sequenceNumberRange(SequenceNumberRange.builder().startingSequenceNumber("0")
                                .endingSequenceNumber(closed ? "99999999999999999999" : null).build())
                        .build());
            }
        });
        return new FixedStreamListing(streamArn, table, listed);
    }
}
