package io.tally.stream.rebuild;

import io.tally.core.StreamShards;
import io.tally.stream.engine.SourceRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads everything a table's stream still holds, every shard from its trim horizon to its end, parents before
 * children, and tells the position it reached. A closed shard ends where GetRecords stops returning a next iterator;
 * an open one at the first empty page once {@code notBefore} has passed (the rebuild passes the end of its scan plus a
 * settling time, so that every change the scan saw has had time to reach the stream) and once the shard itself has
 * been read for the settling time: GetRecords may answer an empty page before a shard's tip, so a shard read after
 * the common deadline (there are many, or they are long) still gets pages past a first empty one.
 */
final class StreamHistory {
    private static final int PAGE = 1000;
    private static final Duration POLL = Duration.ofMillis(200);

    private final DynamoDbStreamsClient streams;
    private final Clock clock;

    StreamHistory(DynamoDbStreamsClient streams, Clock clock) {
        this.streams = streams;
        this.clock = clock;
    }

    /** Every shard the stream lists now, parents before children. */
    List<Shard> shards(String streamArn) {
        return lineageOrder(StreamShards.listed(streams, streamArn));
    }

    /**
     * The shards ordered so that a parent comes before its children: the records of one item are in one line of
     * shards, so reading in this order meets them in the order they were written. A shard whose parent is not listed
     * (trimmed) starts a line.
     */
    static List<Shard> lineageOrder(List<Shard> shards) {
        Map<String, Shard> byId = new HashMap<>();
        shards.forEach(shard -> byId.put(shard.shardId(), shard));
        Set<String> placed = new HashSet<>();
        List<Shard> ordered = new ArrayList<>();
        for (Shard shard : shards) {
            place(shard, byId, placed, ordered, new HashSet<>());
        }
        return ordered;
    }

    private static void place(Shard shard, Map<String, Shard> byId, Set<String> placed, List<Shard> ordered,
                              Set<String> visiting) {
        if (placed.contains(shard.shardId()) || !visiting.add(shard.shardId())) {
            return;
        }
        Shard parent = shard.parentShardId() == null ? null : byId.get(shard.parentShardId());
        if (parent != null) {
            place(parent, byId, placed, ordered, visiting);
        }
        placed.add(shard.shardId());
        ordered.add(shard);
    }

    /**
     * Reads the shards (in the order given) to their ends, handing every record to {@code sink}.
     *
     * @param notBefore an open shard is not taken as read to its end before this instant
     * @param settle    nor before it has been read for this long, from its first page
     */
    StreamPosition read(String streamArn, List<Shard> shards, Instant notBefore, Duration settle,
                        Consumer<SourceRecord> sink) {
        List<String> read = new ArrayList<>();
        Map<String, String> last = new HashMap<>();
        Set<String> open = new HashSet<>();
        for (Shard shard : shards) {
            boolean closed = shard.sequenceNumberRange() != null
                    && shard.sequenceNumberRange().endingSequenceNumber() != null;
            if (!closed) {
                open.add(shard.shardId());
            }
            Instant settled = clock.instant().plus(settle);
            String lastRead = readShard(streamArn, shard.shardId(), closed,
                    settled.isAfter(notBefore) ? settled : notBefore, sink);
            read.add(shard.shardId());
            if (lastRead != null) {
                last.put(shard.shardId(), lastRead);
            }
        }
        return new StreamPosition(streamArn, read, last, open);
    }

    /** Reads one shard to its end; returns the padded sequence number of its last record, or null. */
    private String readShard(String streamArn, String shardId, boolean closed, Instant notBefore,
                             Consumer<SourceRecord> sink) {
        String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        String last = null;
        while (iterator != null) {
            GetRecordsResponse response = streams.getRecords(GetRecordsRequest.builder()
                    .shardIterator(iterator).limit(PAGE).build());
            for (Record record : response.records()) {
                SourceRecord source = SourceRecord.fromSdk(shardId, record);
                sink.accept(source);
                last = source.paddedSequence();
            }
            iterator = response.nextShardIterator();
            if (!closed && response.records().isEmpty()) {
                // An open shard never ends: an empty page is its tip, once every change of the scan has reached it.
                Duration wait = Duration.between(clock.instant(), notBefore);
                if (wait.isNegative() || wait.isZero()) {
                    break;
                }
                sleep(wait.compareTo(POLL) < 0 ? wait : POLL);
            }
        }
        return last;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the stream", e);
        }
    }
}
