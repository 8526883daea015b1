package io.tally.testkit;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * {@code ListStreams} and {@code DescribeStream} answered from a fixed listing, in one page: the stream of a table as a
 * test's synthetic shards make it (a table of many partitions, shard generations), for the code that lists streams
 * (the watermark pruner, the shard identity check). Any other call is not supported.
 */
public record FixedStreamListing(String streamArn, String table, List<Shard> shards)
        implements DynamoDbStreamsClient {
    public FixedStreamListing {
        shards = List.copyOf(shards);
    }

    @Override
    public ListStreamsResponse listStreams(ListStreamsRequest request) {
        return ListStreamsResponse.builder().streams(s -> s.streamArn(streamArn).tableName(table)).build();
    }

    @Override
    public DescribeStreamResponse describeStream(DescribeStreamRequest request) {
        return DescribeStreamResponse.builder().streamDescription(StreamDescription.builder().streamArn(streamArn)
                .tableName(table).shards(shards).build()).build();
    }

    @Override
    public String serviceName() {
        return "dynamodb";
    }

    @Override
    public void close() {
    }
}
