package io.tally.stream.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/**
 * What the stream's listing ({@code DescribeStream}) tells of a shard's parent, for its lineage
 * ({@link ShardCursors#lineage}): a shard that continues its parent's partition alone (DynamoDB rolls a partition's
 * shard over every few hours) continues the parent's lineage and goes on writing its partials; after a split, each
 * child starts a lineage of its own, so that no partial is written by more than one shard at a time.
 */
@FunctionalInterface
public interface ShardParents {
    /** Knows no parent: every shard starts a lineage of its own (the engine before lineages; tools and tests). */
    ShardParents NONE = shardId -> Optional.empty();

    /**
     * The parent of {@code shardId} when the listing holds the shard as its parent's only child (a rollover, not a
     * split); empty when it has no parent, a sibling, or the listing does not know it. Only a cost depends on the
     * answer, never a count: a shard told of no parent starts a lineage, and its parent's partials are folded once the
     * parent is gone.
     *
     * @throws RuntimeException when the listing could not be read: the batch is refused, nothing written
     */
    Optional<String> soleParent(String shardId);

    /**
     * By shard id, the parent of each shard of {@code shards} ({@code DescribeStream}'s listing) that is its parent's
     * only listed child; only of the open ones when {@code openOnly} (the shared listing keeps those: a shard settles
     * its lineage while it is open, at its first batch).
     */
    static Map<String, String> soleParents(List<Shard> shards, boolean openOnly) {
        Map<String, Long> children = shards.stream().filter(shard -> shard.parentShardId() != null)
                .collect(Collectors.groupingBy(Shard::parentShardId, Collectors.counting()));
        Map<String, String> parents = new HashMap<>();
        for (Shard shard : shards) {
            boolean open = shard.sequenceNumberRange() == null
                    || shard.sequenceNumberRange().endingSequenceNumber() == null;
            if ((open || !openOnly) && shard.parentShardId() != null && children.get(shard.parentShardId()) == 1) {
                parents.put(shard.shardId(), shard.parentShardId());
            }
        }
        return parents;
    }

    /** The parents of a listing, as {@link #soleParents} finds them among all its shards, open or closed. */
    static ShardParents of(List<Shard> shards) {
        Map<String, String> parents = Map.copyOf(soleParents(shards, false));
        return shardId -> Optional.ofNullable(parents.get(shardId));
    }
}
