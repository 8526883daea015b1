package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.ShardParents;
import io.tally.testkit.LocalDynamoDb;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/**
 * A repair that reaches a shard before the stream processor does settles the shard's lineage as the processor would,
 * and the processor keeps it: both place the shard's records in the same partials.
 */
class SettledLineagesIT {
    private static final DynamoDbClient CLIENT = LocalDynamoDb.client();
    private static final String ROOT = "shardId-00000001700000000000-000000a1";
    private static final String ROLLED = "shardId-00000001700000001000-000000a2";
    private static final String CHILD = "shardId-00000001700000002000-000000a3";

    private static Shard shard(String id, String parent, boolean closed) {
        return Shard.builder().shardId(id).parentShardId(parent)
                .sequenceNumberRange(SequenceNumberRange.builder().startingSequenceNumber("1")
                        .endingSequenceNumber(closed ? "9" : null).build())
                .build();
    }

    @Test
    void aRepairSettlesAnUnreachedShardsLineage_asTheEngineWould_andTheEngineKeepsIt() {
        String table = LocalDynamoDb.createTable("settled");
        ShardCursors cursors = new DynamoDbShardCursors(CLIENT, table);
        cursors.lineage(ROOT, ShardParents.NONE);
        cursors.lineage(ROLLED, shardId -> Optional.of(ROOT));
        List<Shard> listing = List.of(shard(ROOT, null, true), shard(ROLLED, ROOT, true), shard(CHILD, ROLLED, false));

        SettledLineages repair = new SettledLineages(CLIENT, table, listing);

        assertThat(repair.apply(ROLLED)).isEqualTo(ROOT);
        assertThat(repair.apply(CHILD)).as("a shard the engine has not reached, settled by the repair").isEqualTo(ROOT);
        // The engine, reaching the shard later in an environment told of no parent, keeps what the repair settled.
        assertThat(new DynamoDbShardCursors(CLIENT, table).lineage(CHILD, ShardParents.NONE)).isEqualTo(ROOT);
    }
}
