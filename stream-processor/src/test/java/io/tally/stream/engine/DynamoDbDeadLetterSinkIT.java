package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.LocalDynamoDb;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class DynamoDbDeadLetterSinkIT {
    private static final Instant WRITTEN = Instant.parse("2024-05-01T12:00:00Z");

    private final DynamoDbClient client = LocalDynamoDb.client();
    private String table;
    private DynamoDbDeadLetterSink sink;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("dead-letters");
        sink = new DynamoDbDeadLetterSink(client, table, Clock.fixed(WRITTEN.plusSeconds(5), ZoneOffset.UTC));
    }

    @Test
    void sameRecordFiledTwice_leavesOneItemWithTheWholeRecord() {
        Map<String, AttributeValue> image = Map.of("pk", AttributeValue.fromS("PLANET#mars"),
                "sk", AttributeValue.fromS("#METADATA#"), "entityType", AttributeValue.fromS("Martian"));
        SourceRecord record = new SourceRecord("ev-1", "MODIFY", "shard-1", "4200", WRITTEN,
                Map.of("pk", image.get("pk"), "sk", image.get("sk")), image, image);

        sink.send(DeadLetter.of(record, "unknown entity type: Martian"));
        sink.send(DeadLetter.of(record, "unknown entity type: Martian"));

        List<Map<String, AttributeValue>> letters = letters();
        assertThat(letters).singleElement().satisfies(letter -> assertThat(letter)
                .containsEntry("sk", AttributeValue.fromS(SourceRecord.pad("4200") + "#ev-1"))
                .containsEntry("entityType", AttributeValue.fromS("DeadLetter"))
                .containsEntry("reason", AttributeValue.fromS("unknown entity type: Martian"))
                .containsEntry("oldImage", AttributeValue.fromM(image))
                .containsEntry("newImage", AttributeValue.fromM(image))
                .containsEntry("recordedAt", AttributeValue.fromS("2024-05-01T12:00:05.000Z")));
    }

    @Test
    void recordTooLargeForOneItem_isFiledWithoutImages() {
        // Two images of 250 KB each: together over DynamoDB's 400 KB item limit.
        String large = "x".repeat(250_000);
        Map<String, AttributeValue> image = Map.of("pk", AttributeValue.fromS("USER#u1"),
                "sk", AttributeValue.fromS("POST#p1#t"), "body", AttributeValue.fromS(large));
        SourceRecord record = new SourceRecord("ev-2", "MODIFY", "shard-1", "4300", WRITTEN,
                Map.of("pk", image.get("pk"), "sk", image.get("sk")), image, image);

        sink.send(DeadLetter.of(record, "malformed"));

        assertThat(letters()).singleElement().satisfies(letter -> assertThat(letter)
                .doesNotContainKeys("oldImage", "newImage")
                .containsKey("keys")
                .hasEntrySatisfying("reason", reason -> assertThat(reason.s()).contains("images omitted")));
    }

    private List<Map<String, AttributeValue>> letters() {
        return client.query(QueryRequest.builder().tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("DEADLETTER#2024-05-01")))
                .consistentRead(true)
                .build()).items();
    }
}
