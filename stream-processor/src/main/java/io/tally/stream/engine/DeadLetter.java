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
 * @param events         for a record whose derived writes are in but whose domain events were refused for good or
 *                       given up on: those events as a JSON array of
 *                       {@code {"id","source","detailType","detail","errorCode"}}, each as it was sent (the detail
 *                       with its {@code eventId}), for {@link io.tally.stream.rebuild.EventRepublisher} to publish again; null for a record
 *                       that could not be processed
 * @param derivedKey     for a record that was processed except for its write to one derived item, which DynamoDB
 *                       refused for good: that item's key (the reason names the records the write held); null
 *                       otherwise
 */
public record DeadLetter(String shardId, String sequenceNumber, String eventId, String eventName,
                         Instant approximateCreationTime, Map<String, AttributeValue> keys,
                         Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                         String raw, String reason, String events, Key derivedKey) {

    public DeadLetter {
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(reason, "reason");
        keys = keys == null ? null : Map.copyOf(keys);
        oldImage = oldImage == null ? null : Map.copyOf(oldImage);
        newImage = newImage == null ? null : Map.copyOf(newImage);
    }

    /**
     * A letter of a record of {@code shardId} filed for {@code reason}, built from what is known of the record; what
     * the builder is not given stays null.
     */
    public static Builder builder(String shardId, String reason) {
        return new Builder(shardId, reason);
    }

    /** A letter for a record that could not be processed. */
    public static DeadLetter of(SourceRecord record, String reason) {
        return builder(record.shardId(), reason).identity(record).images(record.oldImage(), record.newImage()).build();
    }

    /**
     * A letter for the domain events of a processed record that could not be published ({@code eventsJson}, see
     * {@link #events()}); the record's keys identify it, its images are left out (the derived data has them).
     */
    public static DeadLetter ofEvents(SourceRecord record, String eventsJson, String reason) {
        return builder(record.shardId(), reason).identity(record)
                .events(Objects.requireNonNull(eventsJson, "eventsJson")).build();
    }

    /**
     * A letter for the write of a processed record's contributions to {@code derivedKey} that DynamoDB refused for
     * good; the record's keys identify it, its images are left out ({@code verify --repair} recomputes the item).
     */
    public static DeadLetter ofDerivedWrite(SourceRecord record, Key derivedKey, String reason) {
        return builder(record.shardId(), reason).identity(record)
                .derivedKey(Objects.requireNonNull(derivedKey, "derivedKey")).build();
    }

    /** Whether this letter holds unpublished events rather than an unprocessed record. */
    public boolean isEvents() {
        return events != null;
    }

    /** Whether this letter names a derived item left without the record's contributions. */
    public boolean isDerivedWrite() {
        return derivedKey != null;
    }

    /** A copy without the images (nor the record as delivered), for a record too large to be filed whole. */
    public DeadLetter withoutImages(String note) {
        return builder(shardId, reason + "; " + note).sequenceNumber(sequenceNumber).eventId(eventId)
                .eventName(eventName).approximateCreationTime(approximateCreationTime).keys(keys).events(events)
                .derivedKey(derivedKey).build();
    }

    /** Builds a {@link DeadLetter} part by part: {@link #builder}. */
    public static final class Builder {
        private final String shardId;
        private final String reason;
        private String sequenceNumber;
        private String eventId;
        private String eventName;
        private Instant approximateCreationTime;
        private Map<String, AttributeValue> keys;
        private Map<String, AttributeValue> oldImage;
        private Map<String, AttributeValue> newImage;
        private String raw;
        private String events;
        private Key derivedKey;

        private Builder(String shardId, String reason) {
            this.shardId = shardId;
            this.reason = reason;
        }

        /** What identifies the record: its sequence number, event id and name, creation time and keys. */
        public Builder identity(SourceRecord record) {
            return sequenceNumber(record.sequenceNumber()).eventId(record.eventId()).eventName(record.eventName())
                    .approximateCreationTime(record.approximateCreationTime()).keys(record.keys());
        }

        /** The record's sequence number as delivered (not padded). */
        public Builder sequenceNumber(String sequenceNumber) {
            this.sequenceNumber = sequenceNumber;
            return this;
        }

        public Builder eventId(String eventId) {
            this.eventId = eventId;
            return this;
        }

        public Builder eventName(String eventName) {
            this.eventName = eventName;
            return this;
        }

        public Builder approximateCreationTime(Instant approximateCreationTime) {
            this.approximateCreationTime = approximateCreationTime;
            return this;
        }

        public Builder keys(Map<String, AttributeValue> keys) {
            this.keys = keys;
            return this;
        }

        /** The item before and after the change. */
        public Builder images(Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
            this.oldImage = oldImage;
            this.newImage = newImage;
            return this;
        }

        /** The record as delivered, when it could not be converted: see {@link DeadLetter#raw()}. */
        public Builder raw(String raw) {
            this.raw = raw;
            return this;
        }

        /** See {@link DeadLetter#events()}. */
        public Builder events(String events) {
            this.events = events;
            return this;
        }

        /** See {@link DeadLetter#derivedKey()}. */
        public Builder derivedKey(Key derivedKey) {
            this.derivedKey = derivedKey;
            return this;
        }

        public DeadLetter build() {
            return new DeadLetter(shardId, sequenceNumber, eventId, eventName, approximateCreationTime, keys, oldImage,
                    newImage, raw, reason, events, derivedKey);
        }
    }
}
