package io.tally.stream;

import io.tally.core.StreamShards;
import io.tally.stream.engine.ShardParents;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Checks, on every batch, that the shard id the event source mapping delivers is one of the ids {@code DescribeStream}
 * lists for the stream. The stream processor keys its watermarks, partials and cursors by the delivered id, while
 * {@code verify}, repair and the watermark pruner know shards by the listed ids: were the two ever to differ, the
 * pruner would take live watermarks for those of a gone shard and delete them (or fold a live shard's partials), and
 * the next redelivery would count twice.
 *
 * <p>The check runs against a listing the environment keeps in memory, so a batch of a known shard costs nothing. A
 * shard the memory does not hold (the environment is cold, or the shard is new) is looked up in the listing the
 * environments share ({@link SharedListing}, one GetItem), and only when that does not hold it either is the stream
 * listed ({@code DescribeStream}, every page), and the listing shared for the others. So a deploy, which starts many
 * environments at once, reads one item per environment instead of listing the stream in each (at 1,000 shards about
 * 70 {@code DescribeStream} pages, against an account limit of 10 calls a second), and a new shard is listed about once.
 *
 * <p>A shard that is not listed fails the batch, with the reason in the log ({@code docs/exactly-once.md}, "When a
 * guard trips"): nothing is written under an identity the rest of Tally would not recognise. A listing that cannot be
 * read (throttled, not permitted) confirms nothing and fails nothing: the next batch asks again. The shared listing is
 * a cache: one that cannot be read or written only costs a listing of the stream.
 */
final class ShardIdentity implements ShardParents {
    private static final Logger LOG = LoggerFactory.getLogger(ShardIdentity.class);

    /** Checks nothing: for handlers built around an engine of the caller's (tests, the local runner). */
    static final ShardIdentity UNCHECKED = new ShardIdentity(null, null, Clock.systemUTC());

    private final DynamoDbStreamsClient streams;
    private final SharedListing shared;
    private final Clock clock;
    /** By stream ARN, what the last listing read or made held. */
    private final Map<String, SharedListing.Listing> known = new ConcurrentHashMap<>();

    /** A check that lists the stream itself, sharing nothing. */
    ShardIdentity(DynamoDbStreamsClient streams) {
        this(streams, null, Clock.systemUTC());
    }

    /** @param shared the listing the environments share; null to share none */
    ShardIdentity(DynamoDbStreamsClient streams, SharedListing shared, Clock clock) {
        this.streams = streams;
        this.shared = shared;
        this.clock = clock;
    }

    /**
     * Checks the delivered shard id.
     *
     * @throws IllegalStateException when the stream's listing, read whole, does not hold {@code shardId}
     */
    void check(String streamArn, String shardId) {
        if (streams == null || streamArn == null || shardId == null) {
            return;
        }
        String token = SharedListing.token(shardId);
        SharedListing.Listing listing = known.get(streamArn);
        if (listing != null && listing.tokens().contains(token)) {
            return;
        }
        if (shared != null && readShared(streamArn).tokens().contains(token)) {
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
        SharedListing.Listing listed = SharedListing.Listing.of(shards);
        known.put(streamArn, listed);
        share(streamArn, listed);
        if (!listed.tokens().contains(token)) {
            String reason = "the event source mapping delivered shard " + shardId + ", which is not among the "
                    + shards.size() + " shards DescribeStream lists for " + streamArn + ": the stream processor would key"
                    + " watermarks by an id that verify, repair and the watermark pruner do not know; nothing written."
                    + " See docs/exactly-once.md, \"When a guard trips\"";
            LOG.error(reason);
            throw new IllegalStateException(reason);
        }
        LOG.info("shard id {} confirmed against stream {} ({} shards listed)", shardId, streamArn, shards.size());
    }

    /**
     * The parent of a shard the listing known here holds as its parent's only child, while open: the check of the
     * batch's shard, which runs first, has read or made a listing that holds the shard. Empty for a shard no listing
     * known here holds (unchecked: no stream client), or one that split from its parent.
     */
    @Override
    public Optional<String> soleParent(String shardId) {
        String token = SharedListing.token(shardId);
        return known.values().stream().map(listing -> listing.soleParents().get(token)).filter(Objects::nonNull)
                .findFirst();
    }

    private SharedListing.Listing readShared(String streamArn) {
        try {
            SharedListing.Listing listing = shared.read(streamArn);
            if (!listing.tokens().isEmpty()) {
                known.put(streamArn, listing);
            }
            return listing;
        } catch (SdkException e) {
            LOG.warn("the shared listing of stream {} could not be read; listing the stream: {}", streamArn,
                    e.toString());
            return SharedListing.Listing.NONE;
        }
    }

    private void share(String streamArn, SharedListing.Listing listing) {
        if (shared == null) {
            return;
        }
        try {
            shared.write(streamArn, listing, clock.instant());
        } catch (SdkException e) {
            LOG.warn("the listing of stream {} could not be shared: {}", streamArn, e.toString());
        }
    }
}
