package io.tally.stream;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import io.tally.domains.blog.Blog;
import io.tally.stream.engine.DeadLetter;
import io.tally.stream.engine.SourceRecord;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

class StreamRecordsTest {

    @Test
    void fromSdk_insert_hasNoOldImage() {
        Map<String, AttributeValue> keys = Map.of("pk", AttributeValue.fromS("USER#u1"),
                "sk", AttributeValue.fromS("#METADATA#u1"));
        Record record = Record.builder()
                .eventID("e1")
                .eventName(OperationType.INSERT)
                .dynamodb(StreamRecord.builder()
                        .sequenceNumber("000000000000000000042")
                        .approximateCreationDateTime(Instant.parse("2024-05-01T12:00:00Z"))
                        .keys(keys)
                        .newImage(Map.of("pk", AttributeValue.fromS("USER#u1"), "sk", AttributeValue.fromS("#METADATA#u1"),
                                "entityType", AttributeValue.fromS("User")))
                        .build())
                .build();

        SourceRecord converted = StreamRecords.fromSdk("shard-1", record);

        assertThat(converted.eventId()).isEqualTo("e1");
        assertThat(converted.eventName()).isEqualTo("INSERT");
        assertThat(converted.shardId()).isEqualTo("shard-1");
        assertThat(converted.sequenceNumber()).isEqualTo("000000000000000000042");
        assertThat(converted.keys()).isEqualTo(keys);
        assertThat(converted.oldImage()).isNull();
        assertThat(converted.newImage()).containsEntry("entityType", AttributeValue.fromS("User"));
        assertThat(converted.entityType()).contains(Users.USER.attributeValue());
    }

    @Test
    void fromLambda_fixtureRecords_convertImagesAndTimes() {
        DynamodbEvent event = EventLoader.loadDynamoDbEvent("events/blog-stream.json");

        SourceRecord modify = StreamRecords.fromLambda("shard-1", event.getRecords().get(3));

        assertThat(modify.eventName()).isEqualTo("MODIFY");
        assertThat(modify.sequenceNumber()).isEqualTo("100000000000000000128");
        assertThat(modify.approximateCreationTime()).isEqualTo(Instant.parse("2024-05-01T12:00:00Z"));
        assertThat(modify.oldImage()).containsEntry("status", AttributeValue.fromS("created"));
        assertThat(modify.newImage()).containsEntry("status", AttributeValue.fromS("updated"))
                .containsEntry("version", AttributeValue.fromN("2"));
        assertThat(modify.entityType()).contains(Blog.POST.attributeValue());
    }

    @Test
    void fromLambda_recordWithoutSequenceNumber_isRefusedAndItsLetterKeepsWhatArrived() {
        DynamodbEvent.DynamodbStreamRecord garbage = EventLoader.loadDynamoDbEvent("events/blog-stream.json")
                .getRecords().get(4);

        assertThatThrownBy(() -> StreamRecords.fromLambda("shard-1", garbage)).isInstanceOf(RuntimeException.class);
        DeadLetter letter = StreamRecords.unconvertible("shard-1", garbage, "no sequence number");
        assertThat(letter.sequenceNumber()).isNull();
        assertThat(letter.eventId()).isEqualTo(garbage.getEventID());
        assertThat(letter.newImage()).containsEntry("userId", AttributeValue.fromS("u3"));
        assertThat(letter.raw()).contains("u3@example.com");
    }
}
