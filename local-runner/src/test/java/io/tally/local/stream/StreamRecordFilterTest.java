package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The deployment's filter (the template's {@code FilterCriteria}, {@link EsmSettings#defaults()}) on records as the
 * poller reads them with GetRecords. infra's {@code StreamFilterTest} checks the patterns themselves case by case; this
 * checks that the poller puts the SDK's records to them as Lambda puts its event's records.
 */
class StreamRecordFilterTest {
    private static final String STREAM_ARN =
            "arn:aws:dynamodb:us-east-1:000000000000:table/tally/stream/2024-01-01T00:00:00.000";

    private final StreamRecordFilter filter = StreamRecordFilter.of(EsmSettings.defaults().filterPatterns());

    @Test
    void echoesOfOurOwnWrites_passedOver() {
        Map<String, AttributeValue> stats = item("USER#u1", "#STATS#", AttributeValue.fromS("UserStats"));
        Map<String, AttributeValue> moreStats = new LinkedHashMap<>(stats);
        moreStats.put("posts", AttributeValue.fromN("2"));

        assertThat(filter.keeps(record(OperationType.MODIFY, stats, moreStats), STREAM_ARN)).isFalse();
        assertThat(filter.keeps(record(OperationType.INSERT, null, item("SHARD#abc", "#CURSOR#",
                AttributeValue.fromS("ShardCursor"))), STREAM_ARN)).isFalse();
        assertThat(filter.keeps(record(OperationType.REMOVE, item("DEADLETTER#2026-01-02#3", "1#e",
                AttributeValue.fromS("DeadLetter")), null), STREAM_ARN)).isFalse();
    }

    @Test
    void baseItemsAndPoison_delivered() {
        Map<String, AttributeValue> post = item("USER#u1", "POST#p1", AttributeValue.fromS("Post"));

        assertThat(filter.keeps(record(OperationType.INSERT, null, post), STREAM_ARN)).isTrue();
        assertThat(filter.keeps(record(OperationType.REMOVE, post, null), STREAM_ARN)).isTrue();
        assertThat(filter.keeps(record(OperationType.INSERT, null, item("X#1", "v", null)), STREAM_ARN)).isTrue();
        assertThat(filter.keeps(record(OperationType.REMOVE, item("X#1", "v", AttributeValue.fromN("3")), null),
                STREAM_ARN)).isTrue();
        assertThat(filter.keeps(record(OperationType.INSERT, null, item("X#1", "v", AttributeValue.fromS("Martian"))),
                STREAM_ARN)).isTrue();
    }

    @Test
    void keep_passesOverWhatNoPatternMatches_inOrder() {
        Record post = record(OperationType.INSERT, null, item("USER#u1", "POST#p1", AttributeValue.fromS("Post")));
        Record echo = record(OperationType.INSERT, null, item("USER#u1", "#STATS#", AttributeValue.fromS("UserStats")));
        Record poison = record(OperationType.INSERT, null, item("X#1", "v", null));

        assertThat(filter.keep(List.of(post, echo, poison, echo), STREAM_ARN)).containsExactly(post, poison);
        assertThat(StreamRecordFilter.of(List.of()).keep(List.of(post, echo), STREAM_ARN)).containsExactly(post, echo);
    }

    @Test
    void aPatternEventRulerRefuses_refusedWithItsPlace() {
        assertThatThrownBy(() -> StreamRecordFilter.of(List.of("{\"dynamodb\": {\"Keys\": {\"pk\": {\"S\": [\"a\"]}}}}",
                "{\"dynamodb\": ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FilterCriteria.Filters[1].Pattern");
    }

    private static Map<String, AttributeValue> item(String pk, String sk, AttributeValue entityType) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", AttributeValue.fromS(pk));
        item.put("sk", AttributeValue.fromS(sk));
        if (entityType != null) {
            item.put("entityType", entityType);
        }
        return item;
    }

    private static Record record(OperationType operation, Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage) {
        Map<String, AttributeValue> image = newImage != null ? newImage : oldImage;
        StreamRecord.Builder dynamodb = StreamRecord.builder()
                .keys(Map.of("pk", image.get("pk"), "sk", image.get("sk")))
                .sequenceNumber("100000000000000000107")
                .sizeBytes(64L)
                .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES);
        if (newImage != null) {
            dynamodb.newImage(newImage);
        }
        if (oldImage != null) {
            dynamodb.oldImage(oldImage);
        }
        return Record.builder().eventID("e1").eventName(operation).eventVersion("1.1").eventSource("aws:dynamodb")
                .awsRegion("us-east-1").dynamodb(dynamodb.build()).build();
    }
}
