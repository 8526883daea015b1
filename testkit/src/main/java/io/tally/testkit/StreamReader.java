package io.tally.testkit;

import io.tally.core.StreamShards;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Reads a table's whole stream with the Streams API, from the trim horizon, shard by shard (parents first). */
public final class StreamReader {
    private StreamReader() {
    }

    public static String streamArn(DynamoDbStreamsClient streams, String table) {
        return streams.listStreams(r -> r.tableName(table)).streams().get(0).streamArn();
    }

    public static List<Shard> shards(DynamoDbStreamsClient streams, String streamArn) {
        return StreamShards.listed(streams, streamArn);
    }

    /**
     * Every record of every shard, converted (the stream processor's {@code StreamRecords::fromSdk}, which the kit
     * cannot depend on), in stream order per shard.
     */
    public static <T> Map<String, List<T>> readAll(DynamoDbStreamsClient streams, String table,
                                                   BiFunction<String, Record, T> convert) {
        String streamArn = streamArn(streams, table);
        Map<String, List<T>> byShard = new LinkedHashMap<>();
        for (Shard shard : shards(streams, streamArn)) {
            List<T> records = new ArrayList<>();
            String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (iterator != null) {
                GetRecordsResponse response = streams.getRecords(GetRecordsRequest.builder()
                        .shardIterator(iterator).limit(1000).build());
                response.records().forEach(record -> records.add(convert.apply(shard.shardId(), record)));
                // An open shard keeps answering with a next iterator: an empty page means caught up.
                iterator = response.records().isEmpty() ? null : response.nextShardIterator();
            }
            byShard.put(shard.shardId(), records);
        }
        return byShard;
    }
}
