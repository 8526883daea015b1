package io.tally.stream.engine;

import io.tally.core.Items;
import io.tally.core.MalformedItemException;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

/**
 * One DynamoDB Streams record, independent of how it arrived (a Lambda event, GetRecords, a test).
 *
 * @param eventId        the record's unique id; domain event ids derive from it
 * @param eventName      {@code INSERT}, {@code MODIFY} or {@code REMOVE}
 * @param shardId        the stream shard the record came from; watermarks are kept per shard
 * @param sequenceNumber the record's sequence number (decimal digits); it orders records within a shard
 * @param approximateCreationTime when the change was written, for the stream lag
 * @param oldImage       the item before the change, or null (INSERT)
 * @param newImage       the item after the change, or null (REMOVE)
 */
public record SourceRecord(String eventId, String eventName, String shardId, String sequenceNumber,
                           Instant approximateCreationTime, Map<String, AttributeValue> keys,
                           Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
    /** DynamoDB Streams sequence numbers have 21 to 40 digits. */
    public static final int SEQUENCE_DIGITS = 40;

    public SourceRecord {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(sequenceNumber, "sequenceNumber");
        if (sequenceNumber.isEmpty() || sequenceNumber.length() > SEQUENCE_DIGITS || !sequenceNumber.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("sequence number must be 1.." + SEQUENCE_DIGITS + " digits: " + sequenceNumber);
        }
        keys = keys == null ? Map.of() : Map.copyOf(keys);
        oldImage = oldImage == null ? null : Map.copyOf(oldImage);
        newImage = newImage == null ? null : Map.copyOf(newImage);
    }

    /**
     * A record read with the DynamoDB Streams API (GetRecords), by the local poller, the tests and the rebuild.
     *
     * @throws RuntimeException when the record lacks what every stream record has (event id, sequence number)
     */
    public static SourceRecord fromSdk(String shardId, Record record) {
        StreamRecord dynamodb = Objects.requireNonNull(record.dynamodb(), "record without a dynamodb section");
        // The SDK answers an absent map with an empty one; hasXxx() tells an absent image from an empty one.
        return new SourceRecord(record.eventID(), record.eventNameAsString(), shardId, dynamodb.sequenceNumber(),
                dynamodb.approximateCreationDateTime(),
                dynamodb.hasKeys() ? dynamodb.keys() : Map.of(),
                dynamodb.hasOldImage() ? dynamodb.oldImage() : null,
                dynamodb.hasNewImage() ? dynamodb.newImage() : null);
    }

    /**
     * The sequence number zero-padded to {@value #SEQUENCE_DIGITS} digits, so that string order is numeric order
     * (a condition expression compares strings; a number attribute holds only 38 digits).
     */
    public String paddedSequence() {
        return pad(sequenceNumber);
    }

    public static String pad(String sequenceNumber) {
        return "0".repeat(SEQUENCE_DIGITS - sequenceNumber.length()) + sequenceNumber;
    }

    /**
     * The entity type attribute of the item, from whichever image carries it; empty when neither does (an item this
     * application does not know).
     *
     * @throws MalformedItemException when the two images name different entity types
     */
    public Optional<String> entityType() {
        String fromNew = Items.entityTypeName(newImage);
        String fromOld = Items.entityTypeName(oldImage);
        if (fromNew != null && fromOld != null && !fromNew.equals(fromOld)) {
            throw new MalformedItemException("entity type changed from " + fromOld + " to " + fromNew);
        }
        return Optional.ofNullable(fromNew != null ? fromNew : fromOld);
    }
}
