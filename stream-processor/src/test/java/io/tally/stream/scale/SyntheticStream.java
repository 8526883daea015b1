package io.tally.stream.scale;

import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.FixedStreamListing;
import io.tally.testkit.StreamReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

/**
 * A table's real stream (DynamoDB Local, one shard) re-cut as a large table's would be: each base record goes to the
 * shard of its partition ({@code partitions} of them, by the partition key, as DynamoDB routes an item) in the
 * current generation; a generation's shards close when it ends and their children continue the partitions. Records
 * of Tally's own items (derived items, cursors, dead letters: the echoes of its writes) are left out, as the event
 * source mapping's filter leaves them out. The listing ({@link #listing}) holds the shards whose records the stream
 * still keeps: the open generation and the closed ones of the last 24 hours.
 */
final class SyntheticStream {
    static final Duration RETENTION = Duration.ofHours(24);

    private final DynamoDbStreamsClient streams;
    private final String table;
    private final String streamArn;
    private final int partitions;
    private final DomainRegistry registry = DomainRegistry.load();
    /** Per real shard, the last sequence number read. */
    private final Map<String, String> readUpTo = new HashMap<>();
    /** Per generation, the synthetic shards it used, and when it closed (null while open). */
    private final Map<Integer, List<String>> shardsOf = new TreeMap<>();
    private final Map<Integer, Instant> closedAt = new HashMap<>();

    SyntheticStream(DynamoDbStreamsClient streams, String table, int partitions) {
        this.streams = streams;
        this.table = table;
        this.streamArn = StreamReader.streamArn(streams, table);
        this.partitions = partitions;
    }

    static String shardId(int generation, int partition) {
        return String.format("shardId-%011d-%08x", 1_700_000_000L + generation, partition);
    }

    /**
     * What the listing tells of a shard's parent: every shard of a generation after the first continues its partition's
     * shard of the generation before, alone (no partition splits here).
     */
    Optional<String> soleParent(String shardId) {
        String[] parts = shardId.split("-");
        int generation = (int) (Long.parseLong(parts[1]) - 1_700_000_000L);
        return generation == 0 ? Optional.empty()
                : Optional.of(shardId(generation - 1, Integer.parseInt(parts[2], 16)));
    }

    /** The base records written since the last call, by synthetic shard of this generation, in stream order. */
    Map<String, List<SourceRecord>> next(int generation) {
        Map<String, List<SourceRecord>> shards = new LinkedHashMap<>();
        for (Shard shard : StreamReader.shards(streams, streamArn)) {
            String after = readUpTo.get(shard.shardId());
            String iterator = streams.getShardIterator(r -> {
                r.streamArn(streamArn).shardId(shard.shardId());
                if (after == null) {
                    r.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
                } else {
                    r.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(after);
                }
            }).shardIterator();
            while (iterator != null) {
                GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator)
                        .limit(1000).build());
                for (var record : page.records()) {
                    readUpTo.put(shard.shardId(), record.dynamodb().sequenceNumber());
                    SourceRecord read = StreamRecords.fromSdk(shard.shardId(), record);
                    if (isTallys(read)) {
                        continue;
                    }
                    String pk = read.keys().get(TableSchema.PK).s();
                    String id = shardId(generation, Shards.of(pk, partitions));
                    shards.computeIfAbsent(id, k -> new ArrayList<>()).add(new SourceRecord(read.eventId(),
                            read.eventName(), id, read.sequenceNumber(), read.approximateCreationTime(), read.keys(),
                            read.oldImage(), read.newImage()));
                }
                iterator = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        List<String> used = shardsOf.computeIfAbsent(generation, g -> new ArrayList<>());
        shards.keySet().stream().filter(id -> !used.contains(id)).forEach(used::add);
        return shards;
    }

    /** The generation's shards close now; its partitions go on in the next generation's shards. */
    void closeGeneration(int generation, Instant now) {
        closedAt.put(generation, now);
    }

    /**
     * How many generations are gone from the listing at {@code now}: closed 24 hours ago or more. They go in the order
     * they closed, so these are the first ones.
     */
    int generationsGone(Instant now) {
        return (int) closedAt.values().stream().filter(closed -> !closed.plus(RETENTION).isAfter(now)).count();
    }

    /** How many generations a listing holds at most: the open one and the closed ones within the retention. */
    int generationsListed() {
        return (int) (RETENTION.toHours() / 4) + 2;
    }

    int shardsUsed() {
        return shardsOf.values().stream().mapToInt(List::size).sum();
    }

    /**
     * The stream as {@code DescribeStream} lists it at {@code now}: the shards of every generation that is open or
     * closed less than 24 hours ago (a closed shard's last record is then still within the retention), each a child of
     * the same partition's shard of the generation before.
     */
    DynamoDbStreamsClient listing(Instant now) {
        List<Shard> listed = new ArrayList<>();
        shardsOf.forEach((generation, ids) -> {
            Instant closed = closedAt.get(generation);
            if (closed != null && !closed.plus(RETENTION).isAfter(now)) {
                return;
            }
            for (String id : ids) {
                int partition = Integer.parseInt(id.substring(id.lastIndexOf('-') + 1), 16);
                listed.add(Shard.builder().shardId(id)
                        .parentShardId(generation == 0 ? null : shardId(generation - 1, partition))
                        .sequenceNumberRange(SequenceNumberRange.builder().startingSequenceNumber("0")
                                .endingSequenceNumber(closed == null ? null : "99999999999999999999").build())
                        .build());
            }
        });
        return new FixedStreamListing(streamArn, table, listed);
    }

    private boolean isTallys(SourceRecord record) {
        Map<String, AttributeValue> image = record.newImage() != null ? record.newImage() : record.oldImage();
        AttributeValue type = image == null ? null : image.get(TableSchema.ENTITY_TYPE);
        Optional<Boolean> derived = type == null || type.s() == null ? Optional.empty()
                : registry.entityType(type.s()).map(t -> t.isDerived());
        return derived.orElse(false);
    }
}
