package io.tally.domains.catalogue;

import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Resume;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The reads of the selector entries the stream processor maintains, one index partition per shard. */
record SelectorStore(DynamoDbClient dynamo, String table) {
    /** One page of a selector, merged from every one of its partitions that is not exhausted. */
    MergedPage<Map<String, AttributeValue>> page(List<String> partitions, List<Resume> from, int limit) {
        return SelectorRequests.SELECTOR.merge(from, DerivedReads.readShards(dynamo, from,
                        (shard, after) -> SelectorRequests.selector(table, partitions.get(shard), limit, after),
                        SelectorRequests::selectorPosition),
                limit);
    }
}
