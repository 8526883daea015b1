package io.tally.stream.engine;

import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A stream record that can never be processed, with the reason: its full payload, so that it can be repaired and
 * replayed by hand. Fields other than {@code shardId} and {@code reason} are null when the record did not carry
 * them (a record that could not even be converted).
 *
 * @param sequenceNumber the record's sequence number as delivered (not padded)
 * @param raw            the record as delivered, when it could not be converted to a {@link SourceRecord}
 * @param events         for a record whose derived writes are in but whose domain events could never be published:
 *                       those events as a JSON array of {@code {"id","detailType","detail"}}, to publish by hand;
 *                       null for a record that could not be processed
 * @param derivedKey     for a record that was processed except for its write to one derived item, which DynamoDB
 *                       refused for good: that item's key (the reason names the records the write held); null
 *                       otherwise
 */
public record DeadLetter(String shardId, String sequenceNumber, String eventId, String eventName,
                         Instant approximateCreationTime, Map<String, AttributeValue> keys,
                         Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                         String raw, String reason, String events, Key derivedKey) {

    /** A letter for a record that could not be processed. */
    public DeadLetter(String shardId, String sequenceNumber, String eventId, String eventName,
                      Instant approximateCreationTime, Map<String, AttributeValue> keys,
                      Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                      String raw, String reason) {
        this(shardId, sequenceNumber, eventId, eventName, approximateCreationTime, keys, oldImage, newImage, raw,
                reason, null, null);
    }

    public DeadLetter {
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(reason, "reason");
        keys = keys == null ? null : Map.copyOf(keys);
        oldImage = oldImage == null ? null : Map.copyOf(oldImage);
        newImage = newImage == null ? null : Map.copyOf(newImage);
    }

    public static DeadLetter of(SourceRecord record, String reason) {
        return new DeadLetter(record.shardId(), record.sequenceNumber(), record.eventId(), record.eventName(),
                record.approximateCreationTime(), record.keys(), record.oldImage(), record.newImage(), null, reason);
    }

    /**
     * A letter for the domain events of a processed record that could not be published ({@code eventsJson}, see
     * {@link #events()}); the record's keys identify it, its images are left out (the derived data has them).
     */
    public static DeadLetter ofEvents(SourceRecord record, String eventsJson, String reason) {
        return new DeadLetter(record.shardId(), record.sequenceNumber(), record.eventId(), record.eventName(),
                record.approximateCreationTime(), record.keys(), null, null, null, reason,
                Objects.requireNonNull(eventsJson, "eventsJson"), null);
    }

    /**
     * A letter for the write of a processed record's contributions to {@code derivedKey} that DynamoDB refused for
     * good; the record's keys identify it, its images are left out ({@code verify --repair} recomputes the item).
     */
    public static DeadLetter ofDerivedWrite(SourceRecord record, Key derivedKey, String reason) {
        return new DeadLetter(record.shardId(), record.sequenceNumber(), record.eventId(), record.eventName(),
                record.approximateCreationTime(), record.keys(), null, null, null, reason, null,
                Objects.requireNonNull(derivedKey, "derivedKey"));
    }

    /** Whether this letter holds unpublished events rather than an unprocessed record. */
    public boolean isEvents() {
        return events != null;
    }

    /** Whether this letter names a derived item left without the record's contributions. */
    public boolean isDerivedWrite() {
        return derivedKey != null;
    }

    /** A copy without the images, for a record too large to be filed whole. */
    public DeadLetter withoutImages(String note) {
        return new DeadLetter(shardId, sequenceNumber, eventId, eventName, approximateCreationTime, keys, null, null,
                null, reason + "; " + note, events, derivedKey);
    }
}
