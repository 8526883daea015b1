package io.tally.local.stream;

import static io.tally.testkit.RecordFixtures.T0;
import static io.tally.testkit.RecordFixtures.records;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.testkit.RecordFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesFailureDestinationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STREAM_ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-01T00:00:00.000";
    private static final String FUNCTION_ARN = "arn:aws:lambda:us-east-1:000000000000:function:f";

    @TempDir
    Path dataDir;

    @Test
    void twoDiscardedBatches_writtenAsTwoLinesWithTheAwsInvocationRecordAndTheRecords() throws Exception {
        JsonLinesFailureDestination destination = JsonLinesFailureDestination.inDirectory(dataDir.resolve("nested"));
        destination.send(new DiscardedBatch(DiscardedBatch.Condition.RETRY_ATTEMPTS_EXHAUSTED, 11, FUNCTION_ARN,
                STREAM_ARN, "shard-1", records(3, 5), T0.plusSeconds(100), "Unhandled", "boom"));
        destination.send(new DiscardedBatch(DiscardedBatch.Condition.RECORD_AGE_EXCEEDED, 0, FUNCTION_ARN,
                STREAM_ARN, "shard-1", records(6, 6), T0.plusSeconds(200), null, null));

        List<String> lines = Files.readAllLines(destination.file());

        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.at("/requestContext/condition").asText()).isEqualTo("RetryAttemptsExhausted");
        assertThat(first.at("/requestContext/approximateInvokeCount").asInt()).isEqualTo(11);
        assertThat(first.at("/requestContext/functionArn").asText()).isEqualTo(FUNCTION_ARN);
        assertThat(first.at("/requestContext/requestId").asText()).isNotBlank();
        assertThat(first.at("/responseContext/statusCode").asInt()).isEqualTo(200);
        assertThat(first.at("/responseContext/functionError").asText()).isEqualTo("Unhandled");
        assertThat(first.at("/version").asText()).isEqualTo("1.0");
        assertThat(first.at("/timestamp").asText()).isEqualTo("2024-01-01T00:01:40Z");
        JsonNode info = first.get("DDBStreamBatchInfo");
        assertThat(info.get("shardId").asText()).isEqualTo("shard-1");
        assertThat(info.get("startSequenceNumber").asText()).isEqualTo(RecordFixtures.sequenceNumber(3));
        assertThat(info.get("endSequenceNumber").asText()).isEqualTo(RecordFixtures.sequenceNumber(5));
        assertThat(info.get("approximateArrivalOfFirstRecord").asText()).isEqualTo("2024-01-01T00:00:03Z");
        assertThat(info.get("approximateArrivalOfLastRecord").asText()).isEqualTo("2024-01-01T00:00:05Z");
        assertThat(info.get("batchSize").asInt()).isEqualTo(3);
        assertThat(info.get("streamArn").asText()).isEqualTo(STREAM_ARN);
        assertThat(first.at("/payload/Records")).hasSize(3);
        assertThat(first.at("/payload/Records/0/dynamodb/Keys/pk/S").asText()).isEqualTo("item-3");
        assertThat(first.at("/payload/Records/0/eventSourceARN").asText()).isEqualTo(STREAM_ARN);
        assertThat(first.at("/local/errorMessage").asText()).isEqualTo("boom");

        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.at("/requestContext/condition").asText()).isEqualTo("RecordAgeExceeded");
        assertThat(second.at("/requestContext/approximateInvokeCount").asInt()).isZero();
        assertThat(second.has("responseContext")).isFalse();
        assertThat(second.has("local")).isFalse();
        assertThat(second.at("/DDBStreamBatchInfo/batchSize").asInt()).isEqualTo(1);
    }
}
