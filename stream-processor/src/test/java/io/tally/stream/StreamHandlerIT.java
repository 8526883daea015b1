package io.tally.stream;

import io.tally.core.read.SharedReads;
import io.tally.core.users.Users;
import static io.tally.stream.testing.TestDerivations.partial;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.amazonaws.services.lambda.runtime.tests.annotations.Event;
import io.tally.core.DeadLetterItem;
import io.tally.core.Key;
import io.tally.domains.blog.BlogKeys;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.testkit.LocalDynamoDb;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class StreamHandlerIT {
    private static final String STREAM_ARN =
            "arn:aws:dynamodb:us-east-1:123456789012:table/tally/stream/2024-05-01T00:00:00.000";

    private final DynamoDbClient client = LocalDynamoDb.client();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private String table;
    private Engine engine;
    private StreamHandler handler;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("stream-handler");
        engine = Engine.builder()
                .derivations(TestDerivations.blog())
                .store(new DynamoDbDerivedStore(client, table))
                .deadLetters(new DynamoDbDeadLetterSink(client, table))
                .publisher(publisher)
                .build();
        handler = new StreamHandler(engine);
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    @ParameterizedTest
    @Event(value = "events/blog-stream.json", type = DynamodbEvent.class)
    void blogEvent_freshTable_derivedItemsWrittenAndNoFailures(DynamodbEvent event) {
        StreamsEventResponse response = handler.handleRequest(event, null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(number(Users.statsKey("u1"), "posts")).isEqualTo(1);
        assertThat(number(Users.statsKey("u2"), "posts")).isEqualTo(1);
        assertThat(number(Users.statsKey("u2"), "comments")).isZero();
        Map<String, AttributeValue> projection = item(BlogKeys.postProjection("p1"));
        assertThat(projection)
                .containsEntry("title", AttributeValue.fromS("Single-table design, part 1"))
                .containsEntry("status", AttributeValue.fromS("updated"))
                .containsEntry("entityType", AttributeValue.fromS("PostProjection"))
                // The plain event names no shard: the stream ARN stands for it.
                .containsEntry(Watermarks.attributeName(STREAM_ARN),
                        AttributeValue.fromS(SourceRecord.pad("100000000000000000149")));
        assertThat(number(BlogKeys.postProjection("p1"), "comments")).isZero();
        assertThat(publisher.published()).isNotEmpty();
    }

    @Test
    void unconvertibleAndPoisonRecords_becomeDeadLetterItems_andDoNotBlockTheBatch() {
        StreamsEventResponse response = handler.handleRequest(load(), null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<Map<String, AttributeValue>> letters = deadLetters();
        assertThat(letters).hasSize(2);
        assertThat(letters).anySatisfy(letter -> assertThat(letter)
                .containsEntry("sequenceNumber", AttributeValue.fromS("100000000000000000156"))
                .containsEntry("eventName", AttributeValue.fromS("INSERT"))
                .containsEntry("entityType", AttributeValue.fromS("DeadLetter"))
                .containsKey("newImage")
                .hasEntrySatisfying("reason", reason -> assertThat(reason.s()).contains("Martian")));
        assertThat(letters).anySatisfy(letter -> assertThat(letter)
                .doesNotContainKey("sequenceNumber")
                .containsKey("raw")
                .hasEntrySatisfying("reason", reason -> assertThat(reason.s()).contains("converted")));
    }

    @Test
    void sameEventTwice_countsOnce() {
        handler.handleRequest(load(), null);
        Map<String, AttributeValue> once = SharedReads.whole(client, table, Users.statsKey("u1"), null);

        StreamsEventResponse again = handler.handleRequest(load(), null);

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(SharedReads.whole(client, table, Users.statsKey("u1"), null)).isEqualTo(once);
        assertThat(deadLetters()).hasSize(2);
    }

    @Test
    void writeThatFails_reportsTheFirstRecordOfThatItem_andTheRetryFromThereConverges() {
        // A stats partial whose counter is a string: the ADD of u2's post fails, as a write that keeps failing would.
        Key broken = partial(Users.statsKey("u2"), STREAM_ARN);
        client.putItem(PutItemRequest.builder().tableName(table).item(Map.of(
                "pk", AttributeValue.fromS(broken.pk()), "sk", AttributeValue.fromS(broken.sk()),
                "posts", AttributeValue.fromS("broken"))).build());

        StreamsEventResponse response = handler.handleRequest(load(), null);

        // The failed write held all of u2's records; the first is the comment, record 3 of the event.
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("100000000000000000121");
        assertThat(number(Users.statsKey("u1"), "posts")).isEqualTo(1);

        client.putItem(PutItemRequest.builder().tableName(table).item(Map.of(
                "pk", AttributeValue.fromS(broken.pk()), "sk", AttributeValue.fromS(broken.sk()))).build());
        DynamodbEvent retry = load();
        retry.setRecords(retry.getRecords().subList(2, retry.getRecords().size()));
        StreamsEventResponse retried = handler.handleRequest(retry, null);

        assertThat(retried.getBatchItemFailures()).isEmpty();
        assertThat(number(Users.statsKey("u2"), "posts")).isEqualTo(1);
        assertThat(number(Users.statsKey("u2"), "comments")).isZero();
        assertThat(number(Users.statsKey("u1"), "posts")).isEqualTo(1);
    }

    private static DynamodbEvent load() {
        return EventLoader.loadDynamoDbEvent("events/blog-stream.json");
    }

    private Map<String, AttributeValue> item(Key key) {
        return client.getItem(GetItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .consistentRead(true).build()).item();
    }

    private long number(Key key, String attribute) {
        AttributeValue value = SharedReads.whole(client, table, key, null).get(attribute);
        return value == null ? 0 : Long.parseLong(value.n());
    }

    /** The fixture's records were all written on 2024-05-01. */
    private List<Map<String, AttributeValue>> deadLetters() {
        List<Map<String, AttributeValue>> letters = new ArrayList<>();
        for (String partition : DeadLetterItem.partitions("2024-05-01")) {
            letters.addAll(client.query(QueryRequest.builder().tableName(table)
                    .keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                    .consistentRead(true)
                    .build()).items());
        }
        return letters;
    }
}
