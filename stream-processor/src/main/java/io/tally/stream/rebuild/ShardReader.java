package io.tally.stream.rebuild;

import io.tally.stream.engine.SourceRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads one shard of a stream from its trim horizon to its end. A closed shard ends where GetRecords stops returning
 * a next iterator; an open one at the first empty page at or after a given instant (before it, an empty page is
 * polled again every 200 ms: GetRecords may answer one short of a shard's tip). Thread-safe: the readers of a
 * {@link StreamHistory} share one.
 */
final class ShardReader {
    private static final int PAGE = 1000;
    private static final Duration POLL = Duration.ofMillis(200);

    private final DynamoDbStreamsClient streams;
    private final Clock clock;

    ShardReader(DynamoDbStreamsClient streams, Clock clock) {
        this.streams = streams;
        this.clock = clock;
    }

    /**
     * Reads the shard to its end, handing each page's records, in stream order, to {@code pages} (never an empty
     * page); returns the padded sequence number of its last record, or null when it held none.
     *
     * @param notBefore an open shard is not taken as read to its end before this instant
     */
    String read(String streamArn, String shardId, boolean closed, Instant notBefore,
                Consumer<List<SourceRecord>> pages) {
        String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        String last = null;
        while (iterator != null) {
            GetRecordsResponse response = streams.getRecords(GetRecordsRequest.builder()
                    .shardIterator(iterator).limit(PAGE).build());
            List<SourceRecord> page = new ArrayList<>(response.records().size());
            for (Record record : response.records()) {
                page.add(SourceRecord.fromSdk(shardId, record));
            }
            if (!page.isEmpty()) {
                pages.accept(page);
                last = page.get(page.size() - 1).paddedSequence();
            }
            iterator = response.nextShardIterator();
            if (!closed && page.isEmpty()) {
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
