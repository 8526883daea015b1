package io.tally.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Stream records for tests without a stream: record n has sequence number n and was written n seconds after T0. */
public final class RecordFixtures {
    public static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");

    private RecordFixtures() {
    }

    public static Record record(int n) {
        Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("item-" + n), "sk", AttributeValue.fromS("v"));
        return Record.builder()
                .eventID("event-" + n)
                .eventName(OperationType.INSERT)
                .eventVersion("1.1")
                .eventSource("aws:dynamodb")
                .awsRegion("ddblocal")
                .dynamodb(StreamRecord.builder()
                        .approximateCreationDateTime(T0.plusSeconds(n))
                        .keys(keys)
                        .newImage(keys)
                        .sequenceNumber(sequenceNumber(n))
                        .sizeBytes(20L)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build())
                .build();
    }

    /** Records from through to, both included. */
    public static List<Record> records(int from, int to) {
        List<Record> records = new ArrayList<>();
        for (int n = from; n <= to; n++) {
            records.add(record(n));
        }
        return records;
    }

    public static String sequenceNumber(int n) {
        return String.format("%021d", n);
    }

    /** The numbers of the records, for readable assertions. */
    public static List<Integer> numbers(List<Record> records) {
        return records.stream().map(record -> Integer.parseInt(record.dynamodb().sequenceNumber())).toList();
    }
}
