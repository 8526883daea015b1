package io.tally.stream.testing;

import io.tally.stream.StreamRecords;
import io.tally.stream.engine.SourceRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Reads a table's whole stream with the Streams API, from the trim horizon, shard by shard. */
public final class StreamReader {
    private StreamReader() {
    }

    /** Every record of every shard (parents before children), converted, in stream order per shard. */
    public static Map<String, List<SourceRecord>> readAll(DynamoDbStreamsClient streams, String tableName) {
        String streamArn = streams.listStreams(ListStreamsRequest.builder().tableName(tableName).build())
                .streams().get(0).streamArn();
        List<Shard> shards = new ArrayList<>();
        String lastShard = null;
        do {
            StreamDescription description = streams.describeStream(DescribeStreamRequest.builder()
                    .streamArn(streamArn).exclusiveStartShardId(lastShard).build()).streamDescription();
            shards.addAll(description.shards());
            lastShard = description.lastEvaluatedShardId();
        } while (lastShard != null);

        Map<String, List<SourceRecord>> byShard = new LinkedHashMap<>();
        for (Shard shard : shards) {
            List<SourceRecord> records = new ArrayList<>();
            String iterator = streams.getShardIterator(GetShardIteratorRequest.builder()
                    .streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON).build()).shardIterator();
            while (iterator != null) {
                GetRecordsResponse response = streams.getRecords(GetRecordsRequest.builder()
                        .shardIterator(iterator).limit(1000).build());
                response.records().forEach(record -> records.add(StreamRecords.fromSdk(shard.shardId(), record)));
                // An open shard keeps answering with a next iterator: an empty page means caught up.
                iterator = response.records().isEmpty() ? null : response.nextShardIterator();
            }
            byShard.put(shard.shardId(), records);
        }
        return byShard;
    }
}
