package io.tally.stream.rebuild;

import io.tally.core.TableSchema;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.testing.TestRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A stream of many lines of shards, answering as DynamoDB Streams does, each call after a small latency. It holds
 * {@code trees} trees of four shards: a closed root, its closed child, and that child's two open children (a
 * partition split). The root creates four posts, the child changes each, and each of the two open shards removes one
 * of its two posts and changes the other: read in lineage order, two posts of each tree remain. A closed shard answers
 * one page and no next iterator; an open one its page, then empty pages at its tip. DescribeStream lists the shards
 * children first, 100 a page.
 */
final class SyntheticStream implements DynamoDbStreamsClient {
    static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/synthetic/stream/2026-01-01T00:00:00.000";
    private static final int LISTING_PAGE = 100;
    private static final Instant WRITTEN = Instant.parse("2026-01-01T00:00:00Z");

    private final List<Shard> listing = new ArrayList<>();
    private final Map<String, List<Record>> records = new HashMap<>();
    private final Set<String> open = new HashSet<>();
    private final Duration latency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private final AtomicLong calls = new AtomicLong();
    private final int trees;

    SyntheticStream(int trees, Duration latency) {
        this.trees = trees;
        this.latency = latency;
        List<Shard> shards = new ArrayList<>();
        for (int tree = 0; tree < trees; tree++) {
            String root = "shardId-" + tree + "-root";
            String child = "shardId-" + tree + "-child";
            long base = (tree + 1) * 1_000_000L;
            shards.add(shard(root, null, base, true));
            shards.add(shard(child, root, base + 1000, true));
            List<Record> created = new ArrayList<>();
            List<Record> changed = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                Map<String, AttributeValue> fresh = post(tree, k, PostStatus.CREATED);
                created.add(record(OperationType.INSERT, base + k, null, fresh));
                changed.add(record(OperationType.MODIFY, base + 1000 + k, fresh, post(tree, k, PostStatus.UPDATED)));
            }
            records.put(root, created);
            records.put(child, changed);
            for (int half = 0; half < 2; half++) {
                String grandchild = "shardId-" + tree + "-split" + half;
                long start = base + 2000 + 1000L * half;
                shards.add(shard(grandchild, child, start, false));
                open.add(grandchild);
                Map<String, AttributeValue> removed = post(tree, 2 * half, PostStatus.UPDATED);
                Map<String, AttributeValue> kept = post(tree, 2 * half + 1, PostStatus.UPDATED);
                records.put(grandchild, List.of(record(OperationType.REMOVE, start, removed, null),
                        record(OperationType.MODIFY, start + 1, kept, post(tree, 2 * half + 1, PostStatus.DELETED))));
            }
        }
        for (int i = shards.size() - 1; i >= 0; i--) {
            listing.add(shards.get(i));
        }
    }

    int shardCount() {
        return listing.size();
    }

    int openShards() {
        return open.size();
    }

    long records() {
        return records.values().stream().mapToLong(List::size).sum();
    }

    /** The base items there are once every record is applied in lineage order. */
    long itemsAtTheEnd() {
        return 2L * trees;
    }

    /** The ids of the records of each shard, as written. */
    List<String> eventIds(String shardId) {
        return records.get(shardId).stream().map(Record::eventID).toList();
    }

    /** Each shard's last sequence number, zero-padded: the position of a read to the end. */
    Map<String, String> lastSequences() {
        Map<String, String> last = new HashMap<>();
        records.forEach((shard, list) -> last.put(shard,
                SourceRecord.pad(list.get(list.size() - 1).dynamodb().sequenceNumber())));
        return last;
    }

    Set<String> openShardIds() {
        return Set.copyOf(open);
    }

    /** Calls answered so far. */
    long calls() {
        return calls.get();
    }

    /**
     * What reading the shards one after the other takes at least, for the calls answered so far: every open shard for
     * the settling time, and every call's latency.
     */
    Duration sequentialEstimate(Duration settle) {
        return settle.multipliedBy(open.size()).plus(latency.multipliedBy(calls.get()));
    }

    @Override
    public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
        answer();
        int from = 0;
        if (request.exclusiveStartShardId() != null) {
            while (!listing.get(from).shardId().equals(request.exclusiveStartShardId())) {
                from++;
            }
            from++;
        }
        int to = Math.min(listing.size(), from + LISTING_PAGE);
        return DescribeStreamResponse.builder().streamDescription(StreamDescription.builder().streamArn(ARN)
                .shards(listing.subList(from, to))
                .lastEvaluatedShardId(to < listing.size() ? listing.get(to - 1).shardId() : null).build()).build();
    }

    @Override
    public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
        answer();
        return GetShardIteratorResponse.builder().shardIterator(request.shardId() + "#0").build();
    }

    @Override
    public GetRecordsResponse getRecords(GetRecordsRequest request) {
        answer();
        String[] iterator = request.shardIterator().split("#");
        String shardId = iterator[0];
        int page = Integer.parseInt(iterator[1]);
        if (!open.contains(shardId)) {
            return GetRecordsResponse.builder().records(records.get(shardId)).nextShardIterator(null).build();
        }
        return GetRecordsResponse.builder().records(page == 0 ? records.get(shardId) : List.of())
                .nextShardIterator(shardId + "#" + (page + 1)).build();
    }

    @Override
    public String serviceName() {
        return "dynamodb";
    }

    @Override
    public void close() {
    }

    private void answer() {
        calls.incrementAndGet();
        mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            Thread.sleep(latency.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** The most calls that were answered at once: above one when shards are read side by side. */
    int mostInFlight() {
        return mostInFlight.get();
    }

    private static Shard shard(String id, String parent, long first, boolean closed) {
        return Shard.builder().shardId(id).parentShardId(parent).sequenceNumberRange(SequenceNumberRange.builder()
                .startingSequenceNumber(Long.toString(first))
                .endingSequenceNumber(closed ? Long.toString(first + 999) : null).build()).build();
    }

    private static Map<String, AttributeValue> post(int tree, int k, PostStatus status) {
        return TestRecords.post("u" + tree, "p" + tree + "-" + k, "Title", status).toItem();
    }

    private static Record record(OperationType type, long sequence, Map<String, AttributeValue> oldImage,
                                 Map<String, AttributeValue> newImage) {
        Map<String, AttributeValue> item = newImage != null ? newImage : oldImage;
        StreamRecord.Builder dynamodb = StreamRecord.builder().sequenceNumber(Long.toString(sequence))
                .keys(Map.of(TableSchema.PK, item.get(TableSchema.PK), TableSchema.SK, item.get(TableSchema.SK)))
                .approximateCreationDateTime(WRITTEN);
        if (oldImage != null) {
            dynamodb.oldImage(oldImage);
        }
        if (newImage != null) {
            dynamodb.newImage(newImage);
        }
        return Record.builder().eventID("ev-" + sequence).eventName(type).dynamodb(dynamodb.build()).build();
    }
}
