package io.tally.stream.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DeadLetterItem;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

class DeadLettersTest {
    private static final Instant WRITTEN = Instant.parse("2024-05-01T23:59:58Z");
    private static final Instant RECORDED = Instant.parse("2024-05-02T00:00:03.250Z");

    @Test
    void letterOfARecord_keyedByDayAndSequence_holdsTheWholeRecord() {
        Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("USER#u1"),
                "sk", AttributeValue.fromS("#METADATA#u1"));
        Map<String, AttributeValue> newImage = Map.of("pk", AttributeValue.fromS("USER#u1"),
                "sk", AttributeValue.fromS("#METADATA#u1"), "entityType", AttributeValue.fromS("Martian"));
        SourceRecord record = new SourceRecord("ev-1", "INSERT", "shard-1", "4200", WRITTEN, keys, null, newImage);

        PutItemRequest request = DeadLetters.toPutItem("tally", DeadLetter.of(record, "unknown type"), RECORDED);

        assertThat(request.tableName()).isEqualTo("tally");
        assertThat(request.conditionExpression()).isNull();
        assertThat(request.item()).isEqualTo(Map.ofEntries(
                // The day's slot 7 of 16: the CRC-32 of the sort key, modulo 16.
                Map.entry("pk", AttributeValue.fromS("DEADLETTER#2024-05-01#7")),
                Map.entry("sk", AttributeValue.fromS(SourceRecord.pad("4200") + "#ev-1")),
                Map.entry("entityType", AttributeValue.fromS("DeadLetter")),
                Map.entry("reason", AttributeValue.fromS("unknown type")),
                Map.entry("eventName", AttributeValue.fromS("INSERT")),
                Map.entry("shardId", AttributeValue.fromS("shard-1")),
                Map.entry("sequenceNumber", AttributeValue.fromS("4200")),
                Map.entry("eventId", AttributeValue.fromS("ev-1")),
                Map.entry("keys", AttributeValue.fromM(keys)),
                Map.entry("newImage", AttributeValue.fromM(newImage)),
                Map.entry("recordedAt", AttributeValue.fromS("2024-05-02T00:00:03.250Z")),
                // TTL: 30 days after filing, 2024-06-01T00:00:03Z in epoch seconds.
                Map.entry("ttl", AttributeValue.fromN("1717200003"))));
    }

    @Test
    void unconvertibleRecord_withoutSequenceOrEventId_isKeyedByItsContent() {
        DeadLetter letter = DeadLetter.builder("shard-1", "bad").raw("{garbage}").build();
        DeadLetter same = DeadLetter.builder("shard-1", "bad").raw("{garbage}").build();
        DeadLetter other = DeadLetter.builder("shard-1", "bad").raw("{other}").build();

        Key key = DeadLetters.key(letter, RECORDED);

        assertThat(key.pk()).startsWith("DEADLETTER#2024-05-02#")
                .isEqualTo(DeadLetterItem.key("2024-05-02", key.sk()).pk());
        assertThat(key.sk()).startsWith("unsequenced#sha256-");
        assertThat(DeadLetters.key(same, RECORDED)).isEqualTo(key);
        assertThat(DeadLetters.key(other, RECORDED)).isNotEqualTo(key);
        assertThat(DeadLetters.toPutItem("tally", letter, RECORDED).item())
                .containsEntry("raw", AttributeValue.fromS("{garbage}"));
    }

    @Test
    void letterOfARefusedDerivedWrite_namesTheItem_andIsKeyedApartFromTheRecordsOtherLetters() {
        Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("USER#u1"),
                "sk", AttributeValue.fromS("#METADATA#u1"));
        SourceRecord record = new SourceRecord("ev-1", "MODIFY", "shard-1", "4200", WRITTEN, keys, keys, keys);
        Key stats = new Key("USER#u1", "#STATS#");
        Key other = new Key("GLOBAL#STATS#0", "#STATS#");

        DeadLetter letter = DeadLetter.ofDerivedWrite(record, stats, "too large");
        PutItemRequest request = DeadLetters.toPutItem("tally", letter, RECORDED);

        assertThat(request.item()).containsEntry("derivedKey", AttributeValue.fromM(stats.toAttributeMap()))
                .containsEntry("keys", AttributeValue.fromM(keys))
                .doesNotContainKeys("oldImage", "newImage", "events");
        assertThat(DeadLetters.key(letter, RECORDED).sk()).startsWith(SourceRecord.pad("4200") + "#ev-1#derived-");
        assertThat(DeadLetters.key(letter, RECORDED))
                .isEqualTo(DeadLetters.key(DeadLetter.ofDerivedWrite(record, stats, "again"), RECORDED))
                .isNotEqualTo(DeadLetters.key(DeadLetter.ofDerivedWrite(record, other, "too large"), RECORDED))
                .isNotEqualTo(DeadLetters.key(DeadLetter.of(record, "poison"), RECORDED));
    }
}
