package io.tally.stream;

import io.tally.core.read.SharedReads;
import io.tally.core.users.Users;
import static io.tally.stream.testing.TestDerivations.partial;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

class WindowedStreamHandlerIT {
    private static final String FIXTURE = "events/blog-time-window.json";
    private static final String SHARD = "shardId-00000001714564800000-9f8e7d6c";

    private final DynamoDbClient client = LocalDynamoDb.client();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private String table;
    private Engine engine;
    private WindowedStreamHandler handler;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("windowed-handler");
        engine = Engine.builder()
                .derivations(TestDerivations.blog())
                .store(new DynamoDbDerivedStore(client, table))
                .deadLetters(new DynamoDbDeadLetterSink(client, table))
                .publisher(publisher)
                .build();
        handler = new WindowedStreamHandler(engine);
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    @Test
    void timeWindowEvent_derivedItemsCarryTheWatermarkOfTheEventsShard() {
        TimeWindowEventResponse response = handler.handleRequest(load(), null);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(response.getState()).isNotNull().isEmpty();
        // The stats are shared: the event's shard wrote its own partial of them, with its watermark.
        Map<String, AttributeValue> stats = item(partial(Users.statsKey("u2"), SHARD));
        assertThat(stats)
                .containsEntry("posts", AttributeValue.fromN("1"))
                .containsEntry("comments", AttributeValue.fromN("1"))
                .containsEntry(Watermarks.attributeName(SHARD), AttributeValue.fromS(SourceRecord.pad("100000000000000000142")));
        assertThat(stats.keySet().stream().filter(Watermarks::isWatermark)).hasSize(1);
        assertThat(item(BlogKeys.postProjection("p1")))
                .containsEntry("status", AttributeValue.fromS("updated"))
                .containsEntry("comments", AttributeValue.fromN("1"));
    }

    @Test
    void timeWindowEvent_deliveredTwice_countsOnce() {
        handler.handleRequest(load(), null);

        TimeWindowEventResponse again = handler.handleRequest(load(), null);

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(whole(Users.statsKey("u2"))).containsEntry("posts", AttributeValue.fromN("1"))
                .containsEntry("comments", AttributeValue.fromN("1"));
        assertThat(whole(Users.statsKey("u1"))).containsEntry("posts", AttributeValue.fromN("1"));
    }

    @Test
    void finalInvocationOfAWindow_withoutRecords_returnsAnEmptyState() {
        DynamodbTimeWindowEvent event = load();
        event.setRecords(java.util.List.of());
        event.setIsFinalInvokeForWindow(true);

        TimeWindowEventResponse response = handler.handleRequest(event, null);

        assertThat(response.getState()).isNotNull();
        assertThat(response.getBatchItemFailures()).isEmpty();
    }

    /**
     * aws-lambda-java-tests 1.1.1 (serialization 1.0.0) has no Jackson mix-in for DynamodbTimeWindowEvent, so its
     * records come back empty; they are read with the DynamodbEvent loader from the same file.
     */
    private static DynamodbTimeWindowEvent load() {
        DynamodbTimeWindowEvent event = EventLoader.loadEvent(FIXTURE, DynamodbTimeWindowEvent.class);
        event.setRecords(EventLoader.loadDynamoDbEvent(FIXTURE).getRecords());
        return event;
    }

    private Map<String, AttributeValue> whole(Key key) {
        return SharedReads.whole(client, table, key, null);
    }

    private Map<String, AttributeValue> item(Key key) {
        return client.getItem(GetItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .consistentRead(true).build()).item();
    }
}
