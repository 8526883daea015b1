package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DeadLetterItem;
import io.tally.testkit.LocalDynamoDb;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
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

    /** The day's letters, from every partition that may hold them. */
    private List<Map<String, AttributeValue>> letters() {
        List<Map<String, AttributeValue>> letters = new ArrayList<>();
        for (String partition : DeadLetterItem.partitions("2024-05-01")) {
            letters.addAll(client.query(QueryRequest.builder().tableName(table)
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                    .consistentRead(true)
                    .build()).items());
        }
        return letters;
    }

    @Test
    void lettersOfADay_areSpreadOverItsSixteenPartitions_eachInTheSlotOfItsSortKey() {
        for (int i = 1; i <= 64; i++) {
            Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("PLANET#p" + i),
                    "sk", AttributeValue.fromS("#METADATA#"));
            sink.send(DeadLetter.of(new SourceRecord("ev-" + i, "INSERT", "shard-1", Integer.toString(1000 + i),
                    WRITTEN, keys, null, keys), "unknown entity type"));
        }

        List<Map<String, AttributeValue>> letters = letters();

        assertThat(letters).hasSize(64).allSatisfy(letter -> assertThat(letter.get("pk").s())
                .isEqualTo("DEADLETTER#2024-05-01#" + DeadLetterItem.slot(letter.get("sk").s())));
        assertThat(letters.stream().map(letter -> letter.get("pk").s()).distinct().count()).isGreaterThan(8);
    }
}
