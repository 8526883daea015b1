package io.tally.stream.engine;

import io.tally.core.DeadLetterItem;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/** Builds the DynamoDB request that files a {@link DeadLetter} (pure, no I/O). */
public final class DeadLetters {
    static final String REASON = "reason";
    static final String EVENT_NAME = "eventName";
    static final String SHARD_ID = "shardId";
    static final String SEQUENCE_NUMBER = "sequenceNumber";
    static final String EVENT_ID = "eventId";
    static final String KEYS = "keys";
    static final String OLD_IMAGE = "oldImage";
    static final String NEW_IMAGE = "newImage";
    static final String RAW = "raw";
    static final String RECORDED_AT = "recordedAt";
    /** A letter's unpublished events ({@link DeadLetter#events()}). */
    public static final String EVENTS = "events";
    /** Appended to the event id in the key of a letter of unpublished events: a record may have both kinds. */
    static final String EVENTS_SUFFIX = "#events";
    static final String DERIVED_KEY = "derivedKey";
    /**
     * Appended to the event id in the key of a letter of a refused derived write, with a hash of the derived item's
     * key: one record may have several.
     */
    static final String DERIVED_SUFFIX = "#derived-";

    private DeadLetters() {
    }

    /**
     * The key of a letter: the same record always gets the same key, so that filing it again on a retry overwrites
     * instead of adding. A record without a sequence number or event id is keyed by a hash of what arrived.
     */
    public static Key key(DeadLetter letter, Instant recordedAt) {
        Instant day = letter.approximateCreationTime() != null ? letter.approximateCreationTime() : recordedAt;
        String sequence = letter.sequenceNumber() == null ? "unsequenced"
                : isDigits(letter.sequenceNumber()) ? SourceRecord.pad(letter.sequenceNumber())
                : letter.sequenceNumber();
        String eventId = letter.eventId() != null ? letter.eventId() : "sha256-" + sha256(String.valueOf(letter.raw()));
        String suffix = letter.isEvents() ? EVENTS_SUFFIX
                : letter.isDerivedWrite() ? DERIVED_SUFFIX + derivedKeyHash(letter.derivedKey())
                : "";
        return DeadLetterItem.key(day, sequence, eventId + suffix);
    }

    /**
     * The hash of a derived item's key in the sort key of its letters ({@value #DERIVED_SUFFIX}{@code <hash>}), and in
     * the shard cursor's memory of items refused for good ({@link RefusedItems}): 32 hex digits.
     */
    static String derivedKeyHash(Key key) {
        return sha256(key.pk() + "\u0000" + key.sk());
    }

    /** A plain PutItem: a redelivered record replaces its own letter, which is what idempotent filing needs. */
    public static PutItemRequest toPutItem(String tableName, DeadLetter letter, Instant recordedAt) {
        Map<String, AttributeValue> item = new HashMap<>(key(letter, recordedAt).toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(DeadLetterItem.TYPE.attributeValue()));
        item.put(REASON, AttributeValue.fromS(letter.reason()));
        item.put(SHARD_ID, AttributeValue.fromS(letter.shardId()));
        item.put(RECORDED_AT, AttributeValue.fromS(Timestamps.format(recordedAt)));
        // Expires RETENTION after filing (TTL on AWS): a letter nobody handled in a month is no longer actionable.
        item.put(TableSchema.TTL, AttributeValue.fromN(Long.toString(DeadLetterItem.expiresAt(recordedAt))));
        putString(item, EVENT_NAME, letter.eventName());
        putString(item, SEQUENCE_NUMBER, letter.sequenceNumber());
        putString(item, EVENT_ID, letter.eventId());
        putString(item, RAW, letter.raw());
        putString(item, EVENTS, letter.events());
        putMap(item, KEYS, letter.keys());
        putMap(item, OLD_IMAGE, letter.oldImage());
        putMap(item, NEW_IMAGE, letter.newImage());
        if (letter.isDerivedWrite()) {
            putMap(item, DERIVED_KEY, letter.derivedKey().toAttributeMap());
        }
        return PutItemRequest.builder().tableName(tableName).item(item).build();
    }

    private static void putString(Map<String, AttributeValue> item, String name, String value) {
        if (value != null && !value.isEmpty()) {
            item.put(name, AttributeValue.fromS(value));
        }
    }

    private static void putMap(Map<String, AttributeValue> item, String name, Map<String, AttributeValue> value) {
        if (value != null) {
            item.put(name, AttributeValue.fromM(value));
        }
    }

    private static boolean isDigits(String text) {
        return !text.isEmpty() && text.length() <= SourceRecord.SEQUENCE_DIGITS && text.chars().allMatch(Character::isDigit);
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
