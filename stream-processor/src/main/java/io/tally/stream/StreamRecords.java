package io.tally.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.transformers.v2.dynamodb.DynamodbAttributeValueTransformer;
import io.tally.stream.engine.DeadLetter;
import io.tally.stream.engine.SourceRecord;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** Converts stream records as they arrive (GetRecords, Lambda events) to {@link SourceRecord}s. */
public final class StreamRecords {
    private StreamRecords() {
    }

    /**
     * A record read with the DynamoDB Streams API (GetRecords).
     *
     * @throws RuntimeException when the record lacks what every stream record has (event id, sequence number)
     */
    public static SourceRecord fromSdk(String shardId, Record record) {
        return SourceRecord.fromSdk(shardId, record);
    }

    /**
     * A record of a Lambda {@code DynamodbEvent}. Lambda events carry no shard id: the caller names the shard.
     *
     * @throws RuntimeException when the record cannot be converted (no sequence number, garbage attribute values)
     */
    public static SourceRecord fromLambda(String shardId, DynamodbEvent.DynamodbStreamRecord record) {
        var dynamodb = Objects.requireNonNull(record.getDynamodb(), "record without a dynamodb section");
        return new SourceRecord(record.getEventID(), record.getEventName(), shardId, dynamodb.getSequenceNumber(),
                instant(dynamodb.getApproximateCreationDateTime()),
                convert(dynamodb.getKeys()),
                convert(dynamodb.getOldImage()),
                convert(dynamodb.getNewImage()));
    }

    /**
     * The dead letter of a Lambda record that {@link #fromLambda} refused: whatever could be read, and the record
     * as it arrived.
     */
    public static DeadLetter unconvertible(String shardId, DynamodbEvent.DynamodbStreamRecord record, String reason) {
        var dynamodb = record.getDynamodb();
        DeadLetter.Builder letter = DeadLetter.builder(shardId, reason)
                .eventId(record.getEventID())
                .eventName(record.getEventName())
                .raw(String.valueOf(record));
        if (dynamodb != null) {
            letter.sequenceNumber(dynamodb.getSequenceNumber())
                    .approximateCreationTime(instant(dynamodb.getApproximateCreationDateTime()))
                    .keys(convertOrNull(dynamodb.getKeys()))
                    .images(convertOrNull(dynamodb.getOldImage()), convertOrNull(dynamodb.getNewImage()));
        }
        return letter.build();
    }

    private static Map<String, AttributeValue> convert(
            Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> image) {
        return image == null ? null : DynamodbAttributeValueTransformer.toAttributeValueMapV2(image);
    }

    private static Map<String, AttributeValue> convertOrNull(
            Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> image) {
        try {
            return convert(image);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
