package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import io.tally.stream.SdkToLambdaRecords;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The SDK's stream records against {@code events/dynamodb-stream-all-types.json}, a Lambda event as AWS sends it and
 * as the Lambda runtime's serializer reads it.
 */
class SdkToLambdaRecordsTest {
    private static final String STREAM_ARN =
            "arn:aws:dynamodb:us-east-1:000000000000:table/tally/stream/2024-01-01T00:00:00.000";
    private static final String FIXTURE = "events/dynamodb-stream-all-types.json";

    @Test
    void recordsWithEveryAttributeType_converted_equalTheLambdaEventAwsSends() {
        DynamodbEvent converted = SdkToLambdaRecords.event(sdkRecords(), STREAM_ARN);

        assertThat(converted).isEqualTo(EventLoader.loadDynamoDbEvent(FIXTURE));
    }

    @Test
    void modifyRecord_converted_carriesEveryRecordField() {
        DynamodbStreamRecord record = SdkToLambdaRecords.record(sdkRecords().get(0), STREAM_ARN);

        assertThat(record.getEventID()).isEqualTo("7de3041dd709b024af6f29e4fa13d34c");
        assertThat(record.getEventName()).isEqualTo("MODIFY");
        assertThat(record.getEventVersion()).isEqualTo("1.1");
        assertThat(record.getEventSource()).isEqualTo("aws:dynamodb");
        assertThat(record.getAwsRegion()).isEqualTo("us-east-1");
        assertThat(record.getEventSourceARN()).isEqualTo(STREAM_ARN);
        assertThat(record.getUserIdentity()).isNull();
        var dynamodb = record.getDynamodb();
        assertThat(dynamodb.getApproximateCreationDateTime()).isEqualTo(Date.from(Instant.ofEpochSecond(1704067200)));
        assertThat(dynamodb.getKeys()).containsOnlyKeys("pk", "sk");
        assertThat(dynamodb.getKeys().get("pk").getS()).isEqualTo("USER#u1");
        assertThat(dynamodb.getNewImage()).hasSize(16);
        assertThat(dynamodb.getOldImage().get("name").getS()).isEqualTo("Ada L.");
        assertThat(dynamodb.getSequenceNumber()).isEqualTo("4421584500000000017450439091");
        assertThat(dynamodb.getSizeBytes()).isEqualTo(312L);
        assertThat(dynamodb.getStreamViewType()).isEqualTo("NEW_AND_OLD_IMAGES");
    }

    @Test
    void removeByTtl_converted_keepsUserIdentityAndHasNoNewImage() {
        DynamodbStreamRecord record = SdkToLambdaRecords.record(sdkRecords().get(1), STREAM_ARN);

        assertThat(record.getEventName()).isEqualTo("REMOVE");
        assertThat(record.getUserIdentity().getType()).isEqualTo("Service");
        assertThat(record.getUserIdentity().getPrincipalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(record.getDynamodb().getNewImage()).isNull();
        assertThat(record.getDynamodb().getOldImage().get("ttl").getN()).isEqualTo("1704067000");
    }

    @Test
    void eachAttributeType_converted_keepsTypeAndValue() {
        var image = SdkToLambdaRecords.item(newImage());

        assertThat(image.get("name").getS()).isEqualTo("Ada");
        assertThat(image.get("empty").getS()).isEmpty();
        assertThat(image.get("score").getN()).isEqualTo("-12.5");
        assertThat(image.get("avatar").getB()).isEqualTo(ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)));
        assertThat(image.get("tags").getSS()).containsExactly("a", "b");
        assertThat(image.get("scores").getNS()).containsExactly("1", "2.5");
        assertThat(image.get("blobs").getBS()).containsExactly(ByteBuffer.wrap(new byte[] {0, 1}),
                ByteBuffer.wrap(new byte[] {(byte) 0xff}));
        assertThat(image.get("address").getM().get("nested").getM().get("deep").getBOOL()).isTrue();
        assertThat(image.get("history").getL()).hasSize(5);
        assertThat(image.get("history").getL().get(2).getL()).isEmpty();
        assertThat(image.get("history").getL().get(3).getM()).isEmpty();
        assertThat(image.get("deletedAt").getNULL()).isTrue();
        assertThat(image.get("live").getBOOL()).isFalse();
        assertThat(image.get("emptyMap").getM()).isEmpty();
        assertThat(image.get("emptyList").getL()).isEmpty();
    }

    @Test
    void valueWithoutType_asDynamoDbLocalWritesAnEmptyMap_convertedToEmptyMap() {
        // What DynamoDB Local's stream returns for {"M": {}}: a value with no member set.
        AttributeValue typeless = AttributeValue.builder().build();

        assertThat(SdkToLambdaRecords.attributeValue(typeless).getM()).isEmpty();
        assertThat(StreamRecordJson.attributeValue(typeless).toString()).isEqualTo("{\"M\":{}}");
    }

    @Test
    void sdkRecords_writtenAsJson_readBackByTheLambdaSerializerAsTheSameEvent(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve("event.json");
        Files.writeString(file, StreamRecordJson.event(sdkRecords(), STREAM_ARN).toString());

        assertThat(EventLoader.loadDynamoDbEvent(file.toString()))
                .isEqualTo(SdkToLambdaRecords.event(sdkRecords(), STREAM_ARN));
    }

    @Test
    void creationTimeWithFraction_writtenAsJson_keepsTheFractionInEpochSeconds() {
        Record record = sdkRecords().get(0).toBuilder()
                .dynamodb(sdkRecords().get(0).dynamodb().toBuilder()
                        .approximateCreationDateTime(Instant.ofEpochSecond(1704067200, 250_000_000))
                        .build())
                .build();

        assertThat(StreamRecordJson.record(record, STREAM_ARN).at("/dynamodb/ApproximateCreationDateTime").decimalValue())
                .isEqualByComparingTo("1704067200.25");
    }

    @Test
    void recordsOfAnEvent_converted_keepTheirOrder() {
        List<DynamodbStreamRecord> records = SdkToLambdaRecords.records(sdkRecords(), STREAM_ARN);

        assertThat(records).extracting(r -> r.getDynamodb().getSequenceNumber())
                .containsExactly("4421584500000000017450439091", "4421584500000000017450439092");
    }

    static List<Record> sdkRecords() {
        Record modify = Record.builder()
                .eventID("7de3041dd709b024af6f29e4fa13d34c")
                .eventName(OperationType.MODIFY)
                .eventVersion("1.1")
                .eventSource("aws:dynamodb")
                .awsRegion("us-east-1")
                .dynamodb(StreamRecord.builder()
                        .approximateCreationDateTime(Instant.ofEpochSecond(1704067200))
                        .keys(keys("u1"))
                        .newImage(newImage())
                        .oldImage(ordered(
                                "pk", s("USER#u1"),
                                "sk", s("#METADATA#u1"),
                                "name", s("Ada L."),
                                "version", n("1")))
                        .sequenceNumber("4421584500000000017450439091")
                        .sizeBytes(312L)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build())
                .build();
        Record remove = Record.builder()
                .eventID("f07f8ca4b0b26cb9c4e5e77e69f274ee")
                .eventName(OperationType.REMOVE)
                .eventVersion("1.1")
                .eventSource("aws:dynamodb")
                .awsRegion("us-east-1")
                .userIdentity(Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build())
                .dynamodb(StreamRecord.builder()
                        .approximateCreationDateTime(Instant.ofEpochSecond(1704067260))
                        .keys(keys("u2"))
                        .oldImage(ordered(
                                "pk", s("USER#u2"),
                                "sk", s("#METADATA#u2"),
                                "ttl", n("1704067000")))
                        .sequenceNumber("4421584500000000017450439092")
                        .sizeBytes(58L)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build())
                .build();
        return List.of(modify, remove);
    }

    private static Map<String, AttributeValue> newImage() {
        return ordered(
                "pk", s("USER#u1"),
                "sk", s("#METADATA#u1"),
                "name", s("Ada"),
                "empty", s(""),
                "version", n("2"),
                "score", n("-12.5"),
                "avatar", AttributeValue.fromB(SdkBytes.fromUtf8String("hello")),
                "tags", AttributeValue.fromSs(List.of("a", "b")),
                "scores", AttributeValue.fromNs(List.of("1", "2.5")),
                "blobs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {0, 1}),
                        SdkBytes.fromByteArray(new byte[] {(byte) 0xff}))),
                "address", AttributeValue.fromM(ordered(
                        "city", s("Turin"),
                        "zip", n("10100"),
                        "nested", AttributeValue.fromM(Map.of("deep", AttributeValue.fromBool(true))))),
                "history", AttributeValue.fromL(List.of(s("x"), n("1"), AttributeValue.fromL(List.of()),
                        AttributeValue.fromM(Map.of()), AttributeValue.fromNul(true))),
                "deletedAt", AttributeValue.fromNul(true),
                "live", AttributeValue.fromBool(false),
                "emptyMap", AttributeValue.fromM(Map.of()),
                "emptyList", AttributeValue.fromL(List.of()));
    }

    private static Map<String, AttributeValue> keys(String userId) {
        return ordered("pk", s("USER#" + userId), "sk", s("#METADATA#" + userId));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    private static Map<String, AttributeValue> ordered(Object... namesAndValues) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
        }
        return map;
    }
}
