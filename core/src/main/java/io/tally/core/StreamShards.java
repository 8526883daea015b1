package io.tally.core;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** A stream's shards as {@code DescribeStream} lists them, every page of the listing. */
public final class StreamShards {
    private StreamShards() {
    }

    /** Every shard the stream lists now, open and closed, in the listing's order. */
    public static List<Shard> listed(DynamoDbStreamsClient streams, String streamArn) {
        List<Shard> listed = new ArrayList<>();
        String exclusiveStart = null;
        do {
            String start = exclusiveStart;
            DescribeStreamResponse response = streams.describeStream(r -> r.streamArn(streamArn)
                    .exclusiveStartShardId(start));
            listed.addAll(response.streamDescription().shards());
            exclusiveStart = response.streamDescription().lastEvaluatedShardId();
        } while (exclusiveStart != null);
        return listed;
    }
}
