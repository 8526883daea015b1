package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.ShardParents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;

class SharedListingTest {
    private static final String ROOT = "shardId-00000001700000000000-0000000a";
    private static final String ROLLED = "shardId-00000001700000001000-0000000b";
    private static final String LEFT = "shardId-00000001700000002000-0000000c";
    private static final String RIGHT = "shardId-00000001700000002000-0000000d";

    /** A shard as DescribeStream lists it: closed ones have an ending sequence number. */
    static Shard shard(String id, String parent, boolean closed) {
        return Shard.builder().shardId(id).parentShardId(parent)
                .sequenceNumberRange(SequenceNumberRange.builder().startingSequenceNumber("100")
                        .endingSequenceNumber(closed ? "200" : null).build())
                .build();
    }

    @Test
    void aRollover_givesTheOpenChildItsSoleParent() {
        SharedListing.Listing listing = SharedListing.Listing.of(List.of(shard(ROOT, null, true),
                shard(ROLLED, ROOT, false)));

        assertThat(listing.tokens()).containsExactlyInAnyOrder(SharedListing.token(ROOT),
                SharedListing.token(ROLLED));
        assertThat(listing.soleParents()).containsExactlyEntriesOf(Map.of(SharedListing.token(ROLLED), ROOT));
    }

    @Test
    void aSplit_givesNoChildAParent_andAClosedChildIsLeftOut() {
        SharedListing.Listing split = SharedListing.Listing.of(List.of(shard(ROLLED, null, true),
                shard(LEFT, ROLLED, false), shard(RIGHT, ROLLED, false)));
        SharedListing.Listing closed = SharedListing.Listing.of(List.of(shard(ROOT, null, true),
                shard(ROLLED, ROOT, true)));

        assertThat(split.soleParents()).as("children of a split").isEmpty();
        assertThat(closed.soleParents()).as("a closed child (its lineage was settled long ago)").isEmpty();
    }

    @Test
    void theParentsOfAListing_forARepair_alsoOfClosedShards() {
        List<Shard> shards = List.of(shard(ROOT, null, true), shard(ROLLED, ROOT, true), shard(LEFT, ROLLED, false),
                shard(RIGHT, ROLLED, false));

        assertThat(ShardParents.soleParents(shards, false)).containsExactlyEntriesOf(Map.of(ROLLED, ROOT));
        assertThat(ShardParents.soleParents(shards, true)).isEmpty();
        assertThat(ShardParents.of(shards).soleParent(ROLLED)).contains(ROOT);
        assertThat(ShardParents.of(shards).soleParent(LEFT)).isEmpty();
    }
}
