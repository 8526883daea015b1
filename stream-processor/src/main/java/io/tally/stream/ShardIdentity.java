package io.tally.stream;

import io.tally.core.StreamShards;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Checks, once per container, that the shard id the event source mapping delivers is one of the ids
 * {@code DescribeStream} lists for the stream. The stream processor keys its watermarks and cursors by the delivered
 * id, while {@code verify}, repair and the watermark pruner know shards by the listed ids: were the two ever to
 * differ, the pruner would take live watermarks for those of a gone shard and delete them, and the next redelivery
 * would count twice. The first batch confirms the identity (a few {@code DescribeStream} calls, 10 a second allowed per
 * account); later batches are not checked.
 *
 * <p>A shard that is not listed fails the batch, with the reason in the log ({@code docs/exactly-once.md}, "When a
 * guard trips"): nothing is written under an identity the rest of Tally would not recognise. A {@code DescribeStream}
 * that fails (throttled, not permitted) confirms nothing and fails nothing: the next batch asks again.
 */
final class ShardIdentity {
    private static final Logger LOG = LoggerFactory.getLogger(ShardIdentity.class);

    /** Checks nothing: for handlers built around an engine of the caller's (tests, the local runner). */
    static final ShardIdentity UNCHECKED = new ShardIdentity(null);

    private final DynamoDbStreamsClient streams;
    private final AtomicBoolean confirmed;

    ShardIdentity(DynamoDbStreamsClient streams) {
        this.streams = streams;
        this.confirmed = new AtomicBoolean(streams == null);
    }

    /**
     * Confirms the delivered shard id on the container's first batch.
     *
     * @throws IllegalStateException when the stream's listing, read whole, does not hold {@code shardId}
     */
    void check(String streamArn, String shardId) {
        if (confirmed.get() || streamArn == null || shardId == null) {
            return;
        }
        List<Shard> shards;
        try {
            shards = StreamShards.listed(streams, streamArn);
        } catch (SdkException e) {
            LOG.warn("the shard id {} could not be checked against stream {} (the next batch asks again): {}",
                    shardId, streamArn, e.toString());
            return;
        }
        if (shards.stream().noneMatch(shard -> shard.shardId().equals(shardId))) {
            String reason = "the event source mapping delivered shard " + shardId + ", which is not among the "
                    + shards.size() + " shards DescribeStream lists for " + streamArn + ": the stream processor would key"
                    + " watermarks by an id that verify, repair and the watermark pruner do not know; nothing written."
                    + " See docs/exactly-once.md, \"When a guard trips\"";
            LOG.error(reason);
            throw new IllegalStateException(reason);
        }
        confirmed.set(true);
        LOG.info("shard id {} confirmed against stream {}", shardId, streamArn);
    }
}
