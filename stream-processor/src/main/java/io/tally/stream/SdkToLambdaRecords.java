package io.tally.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Stream records as the SDK v2 reads them ({@code GetRecords}) turned into the records of the Lambda event the event
 * source mapping sends ({@code aws-lambda-java-events}), so that a handler sees locally what it sees on AWS.
 */
public final class SdkToLambdaRecords {
    private SdkToLambdaRecords() {
    }

    /** A {@code DynamodbEvent} of the batch. */
    public static DynamodbEvent event(List<Record> records, String streamArn) {
        DynamodbEvent event = new DynamodbEvent();
        event.setRecords(records(records, streamArn));
        return event;
    }

    public static List<DynamodbStreamRecord> records(List<Record> records, String streamArn) {
        List<DynamodbStreamRecord> converted = new ArrayList<>(records.size());
        for (Record record : records) {
            converted.add(record(record, streamArn));
        }
        return converted;
    }

    /**
     * One record. {@code GetRecords} does not return the stream's ARN with each record, while the Lambda event does
     * ({@code eventSourceARN}), so it is passed in.
     */
    public static DynamodbStreamRecord record(Record record, String streamArn) {
        DynamodbStreamRecord converted = new DynamodbStreamRecord();
        converted.setEventID(record.eventID());
        converted.setEventName(record.eventNameAsString());
        converted.setEventVersion(record.eventVersion());
        converted.setEventSource(record.eventSource());
        converted.setAwsRegion(record.awsRegion());
        converted.setEventSourceARN(streamArn);
        if (record.dynamodb() != null) {
            converted.setDynamodb(streamRecord(record.dynamodb()));
        }
        if (record.userIdentity() != null) {
            // Present on deletions by TTL (type "Service", principal "dynamodb.amazonaws.com"): derivations that must
            // tell an expiry from a user's delete rely on it.
            converted.setUserIdentity(new Identity()
                    .withType(record.userIdentity().type())
                    .withPrincipalId(record.userIdentity().principalId()));
        }
        return converted;
    }

    static StreamRecord streamRecord(software.amazon.awssdk.services.dynamodb.model.StreamRecord source) {
        StreamRecord target = new StreamRecord();
        if (source.approximateCreationDateTime() != null) {
            target.setApproximateCreationDateTime(Date.from(source.approximateCreationDateTime()));
        }
        if (source.hasKeys()) {
            target.setKeys(item(source.keys()));
        }
        if (source.hasNewImage()) {
            target.setNewImage(item(source.newImage()));
        }
        if (source.hasOldImage()) {
            target.setOldImage(item(source.oldImage()));
        }
        target.setSequenceNumber(source.sequenceNumber());
        target.setSizeBytes(source.sizeBytes());
        if (source.streamViewType() != null) {
            target.setStreamViewType(StreamViewType.fromValue(source.streamViewTypeAsString()));
        }
        return target;
    }

    /** An item (keys or an image); attribute order is kept. */
    public static Map<String, AttributeValue> item(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
        Map<String, AttributeValue> converted = new LinkedHashMap<>();
        item.forEach((name, value) -> converted.put(name, attributeValue(value)));
        return converted;
    }

    public static AttributeValue attributeValue(software.amazon.awssdk.services.dynamodb.model.AttributeValue value) {
        AttributeValue converted = new AttributeValue();
        switch (value.type()) {
            case S -> converted.setS(value.s());
            case N -> converted.setN(value.n());
            case B -> converted.setB(byteBuffer(value.b()));
            case SS -> converted.setSS(new ArrayList<>(value.ss()));
            case NS -> converted.setNS(new ArrayList<>(value.ns()));
            case BS -> converted.setBS(value.bs().stream().map(SdkToLambdaRecords::byteBuffer).toList());
            case M -> converted.setM(item(value.m()));
            case L -> converted.setL(value.l().stream().map(SdkToLambdaRecords::attributeValue).toList());
            case NUL -> converted.setNULL(value.nul());
            case BOOL -> converted.setBOOL(value.bool());
            // DynamoDB Local writes an empty map into stream records as a value without any type ({}), which the SDK
            // reads as UNKNOWN_TO_SDK_VERSION with no member set; DynamoDB sends {"M": {}}. An empty map is the only
            // value that can come out like this (empty sets are not allowed, empty lists, strings and binaries keep
            // their type), so it is read as one.
            case UNKNOWN_TO_SDK_VERSION -> {
                if (!isBlank(value)) {
                    throw new IllegalArgumentException("attribute value of a type unknown to this SDK: " + value);
                }
                converted.setM(new LinkedHashMap<>());
            }
            default -> throw new IllegalArgumentException("unexpected attribute value type " + value.type());
        }
        return converted;
    }

    /** Whether a value has no member set at all (see the empty map of DynamoDB Local above). */
    public static boolean isBlank(software.amazon.awssdk.services.dynamodb.model.AttributeValue value) {
        return value.s() == null && value.n() == null && value.b() == null && !value.hasSs() && !value.hasNs()
                && !value.hasBs() && !value.hasM() && !value.hasL() && value.nul() == null && value.bool() == null;
    }

    private static ByteBuffer byteBuffer(SdkBytes bytes) {
        // A copy: the handler may consume or change the buffer, and the record may be delivered again.
        return ByteBuffer.wrap(bytes.asByteArray());
    }
}
