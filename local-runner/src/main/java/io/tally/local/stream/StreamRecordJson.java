package io.tally.local.stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.stream.SdkToLambdaRecords;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

/**
 * Stream records written as the JSON of the Lambda event ({@code {"Records": [...]}}), the shape AWS puts in the
 * {@code payload} of an on-failure record sent to S3, so that a discarded batch can be read back with the Lambda
 * runtime's own serializer and replayed.
 */
public final class StreamRecordJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StreamRecordJson() {
    }

    static ObjectNode event(List<Record> records, String streamArn) {
        ObjectNode event = NODES.objectNode();
        ArrayNode array = event.putArray("Records");
        records.forEach(record -> array.add(record(record, streamArn)));
        return event;
    }

    static ObjectNode record(Record record, String streamArn) {
        ObjectNode json = NODES.objectNode();
        putIfPresent(json, "eventID", record.eventID());
        putIfPresent(json, "eventName", record.eventNameAsString());
        putIfPresent(json, "eventVersion", record.eventVersion());
        putIfPresent(json, "eventSource", record.eventSource());
        putIfPresent(json, "awsRegion", record.awsRegion());
        putIfPresent(json, "eventSourceARN", streamArn);
        if (record.dynamodb() != null) {
            json.set("dynamodb", streamRecord(record.dynamodb()));
        }
        if (record.userIdentity() != null) {
            ObjectNode identity = json.putObject("userIdentity");
            putIfPresent(identity, "type", record.userIdentity().type());
            putIfPresent(identity, "principalId", record.userIdentity().principalId());
        }
        return json;
    }

    private static ObjectNode streamRecord(StreamRecord source) {
        ObjectNode json = NODES.objectNode();
        if (source.approximateCreationDateTime() != null) {
            // Epoch seconds, as in the event Lambda sends.
            Instant created = source.approximateCreationDateTime();
            if (created.getNano() == 0) {
                json.put("ApproximateCreationDateTime", created.getEpochSecond());
            } else {
                json.put("ApproximateCreationDateTime",
                        BigDecimal.valueOf(created.getEpochSecond()).add(BigDecimal.valueOf(created.getNano(), 9)));
            }
        }
        if (source.hasKeys()) {
            json.set("Keys", item(source.keys()));
        }
        if (source.hasNewImage()) {
            json.set("NewImage", item(source.newImage()));
        }
        if (source.hasOldImage()) {
            json.set("OldImage", item(source.oldImage()));
        }
        putIfPresent(json, "SequenceNumber", source.sequenceNumber());
        if (source.sizeBytes() != null) {
            json.put("SizeBytes", source.sizeBytes());
        }
        putIfPresent(json, "StreamViewType", source.streamViewTypeAsString());
        return json;
    }

    /** An item in DynamoDB JSON ({"S": ...}, {"M": {...}}), as the Lambda event carries images. */
    public static ObjectNode item(Map<String, AttributeValue> item) {
        ObjectNode json = NODES.objectNode();
        item.forEach((name, value) -> json.set(name, attributeValue(value)));
        return json;
    }

    static ObjectNode attributeValue(AttributeValue value) {
        ObjectNode json = NODES.objectNode();
        switch (value.type()) {
            case S -> json.put("S", value.s());
            case N -> json.put("N", value.n());
            case B -> json.put("B", base64(value.b()));
            case SS -> value.ss().forEach(json.putArray("SS")::add);
            case NS -> value.ns().forEach(json.putArray("NS")::add);
            case BS -> {
                ArrayNode array = json.putArray("BS");
                value.bs().forEach(bytes -> array.add(base64(bytes)));
            }
            case M -> json.set("M", item(value.m()));
            case L -> {
                ArrayNode array = json.putArray("L");
                value.l().forEach(element -> array.add(attributeValue(element)));
            }
            case NUL -> json.put("NULL", value.nul());
            case BOOL -> json.put("BOOL", value.bool());
            // DynamoDB Local's empty map; see SdkToLambdaRecords.attributeValue.
            case UNKNOWN_TO_SDK_VERSION -> {
                if (!SdkToLambdaRecords.isBlank(value)) {
                    throw new IllegalArgumentException("attribute value of a type unknown to this SDK: " + value);
                }
                json.putObject("M");
            }
            default -> throw new IllegalArgumentException("unexpected attribute value type " + value.type());
        }
        return json;
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
    }

    private static void putIfPresent(ObjectNode json, String name, String value) {
        if (value != null) {
            json.put(name, value);
        }
    }
}
