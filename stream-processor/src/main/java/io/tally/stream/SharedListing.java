package io.tally.stream;

import io.tally.core.ShardToken;
import io.tally.core.StreamListingItem;
import io.tally.core.TableSchema;
import io.tally.stream.engine.ShardParents;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/**
 * The shard listing every execution environment of the stream processor shares ({@link StreamListingItem}): read by
 * a cold environment, or when it is delivered a shard it does not know, and written by the environment that listed the
 * stream, so that the others need not list it again.
 */
final class SharedListing {
    private final DynamoDbClient dynamo;
    private final String table;

    SharedListing(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /**
     * What a listing tells the stream processor: the tokens of the shards it held, and by token of a shard, its parent's
     * id where the shard is open and its parent's only child (a rollover: the shard continues its parent's lineage).
     */
    record Listing(Set<String> tokens, Map<String, String> soleParents) {
        static final Listing NONE = new Listing(Set.of(), Map.of());

        /** The listing of these shards, as {@code DescribeStream} gave them. */
        static Listing of(List<Shard> shards) {
            Map<String, String> soleParents = new HashMap<>();
            ShardParents.soleParents(shards, true).forEach((child, parent) -> soleParents.put(token(child), parent));
            return new Listing(shards.stream().map(shard -> token(shard.shardId()))
                    .collect(Collectors.toUnmodifiableSet()), Map.copyOf(soleParents));
        }
    }

    /** The shared listing of the stream; {@link Listing#NONE} when there is none. */
    Listing read(String streamArn) {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table)
                .key(StreamListingItem.key(streamArn).toAttributeMap()).consistentRead(true)).item();
        AttributeValue shards = item == null ? null : item.get(StreamListingItem.SHARDS);
        if (shards == null || !shards.hasSs()) {
            return Listing.NONE;
        }
        AttributeValue parents = item.get(StreamListingItem.SOLE_PARENTS);
        Map<String, String> soleParents = new HashMap<>();
        if (parents != null && parents.hasM()) {
            parents.m().forEach((token, parent) -> {
                if (parent.s() != null) {
                    soleParents.put(token, parent.s());
                }
            });
        }
        return new Listing(Set.copyOf(shards.ss()), Map.copyOf(soleParents));
    }

    /** Stores a listing of the stream, made now. */
    void write(String streamArn, Listing listing, Instant now) {
        if (listing.tokens().isEmpty()) {
            return;
        }
        Map<String, AttributeValue> item = new HashMap<>(StreamListingItem.key(streamArn).toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(StreamListingItem.TYPE.attributeValue()));
        item.put(StreamListingItem.STREAM_ARN, AttributeValue.fromS(streamArn));
        item.put(StreamListingItem.SHARDS, AttributeValue.fromSs(listing.tokens().stream().sorted().toList()));
        if (!listing.soleParents().isEmpty()) {
            Map<String, AttributeValue> parents = new HashMap<>();
            listing.soleParents().forEach((token, parent) -> parents.put(token, AttributeValue.fromS(parent)));
            item.put(StreamListingItem.SOLE_PARENTS, AttributeValue.fromM(parents));
        }
        item.put(StreamListingItem.LISTED_AT, AttributeValue.fromS(now.toString()));
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    static String token(String shardId) {
        return ShardToken.of(shardId);
    }
}
