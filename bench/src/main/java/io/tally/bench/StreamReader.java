package io.tally.bench;

import io.tally.stream.engine.SourceRecord;
import io.tally.stream.StreamRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Reads a table's whole stream with the Streams API, from the trim horizon, shard by shard (parents first). */
final class StreamReader {
    private StreamReader() {
    }

    static String streamArn(DynamoDbStreamsClient streams, String table) {
        return streams.listStreams(r -> r.tableName(table)).streams().get(0).streamArn();
    }

    static List<Shard> shards(DynamoDbStreamsClient streams, String streamArn) {
        List<Shard> shards = new ArrayList<>();
        String lastShard = null;
        do {
            String start = lastShard;
            StreamDescription description = streams.describeStream(r -> r.streamArn(streamArn)
                    .exclusiveStartShardId(start)).streamDescription();
            shards.addAll(description.shards());
            lastShard = description.lastEvaluatedShardId();
        } while (lastShard != null);
        return shards;
    }

    /** Every record of every shard, in stream order per shard. */
    static Map<String, List<SourceRecord>> readAll(DynamoDbStreamsClient streams, String table) {
        String streamArn = streamArn(streams, table);
        Map<String, List<SourceRecord>> byShard = new LinkedHashMap<>();
        for (Shard shard : shards(streams, streamArn)) {
            List<SourceRecord> records = new ArrayList<>();
            String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
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
