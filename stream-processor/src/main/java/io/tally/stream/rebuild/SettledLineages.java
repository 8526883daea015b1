package io.tally.stream.rebuild;

import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.ShardParents;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/**
 * For a repair, the lineage of each shard whose records it places in partials, settled as the stream processor settles
 * it ({@link ShardCursors#lineage} on the table's cursors, with the parents {@code DescribeStream} lists): read when the
 * shard's cursor records one, else settled now. A repair writes a shard's partials at the stream position with the
 * shard's watermark; were the engine, reaching a shard the repair got to first, to settle another lineage, it would
 * apply the shard's records again to a partial without that watermark. The settled lineage is the one both keep.
 * Asked only for shards with records that change a shared item, which the engine will claim: no cursor is made that it
 * never claims. Not thread-safe (the stream's records are placed one at a time).
 */
final class SettledLineages implements UnaryOperator<String> {
    private final ShardCursors cursors;
    private final ShardParents parents;
    private final Map<String, String> known = new HashMap<>();

    SettledLineages(DynamoDbClient dynamo, String table, List<Shard> shards) {
        this.cursors = new DynamoDbShardCursors(dynamo, table);
        this.parents = ShardParents.of(shards);
    }

    @Override
    public String apply(String shardId) {
        return known.computeIfAbsent(shardId, id -> cursors.lineage(id, parents));
    }
}
