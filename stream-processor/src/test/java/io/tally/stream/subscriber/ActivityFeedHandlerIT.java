package io.tally.stream.subscriber;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.activity.ActivityFeed;
import io.tally.testkit.LocalDynamoDb;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The subscriber against DynamoDB Local, through its Lambda entry point: every event delivered twice (as EventBridge
 * may, and does on a retry) yields one feed entry, and the marks that drop the duplicates expire.
 */
class ActivityFeedHandlerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static DynamoDbClient dynamoDb;
    private static String table;
    private static ActivityFeedHandler handler;

    @BeforeAll
    static void createTable() {
        dynamoDb = LocalDynamoDb.client();
        table = LocalDynamoDb.createActivityTable();
        handler = new ActivityFeedHandler(dynamoDb, table, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void everyEventDeliveredTwice_yieldsOneFeedEntry() throws Exception {
        List<ObjectNode> events = IntStream.range(0, 12).mapToObj(ActivityFeedHandlerIT::event).toList();
        List<ObjectNode> newestFirst = new ArrayList<>(events);
        java.util.Collections.reverse(newestFirst);
        List<String> answers = new ArrayList<>();
        for (ObjectNode event : events) {
            answers.add(deliver(event));
        }
        for (ObjectNode event : newestFirst) {
            answers.add(deliver(event));
        }

        assertThat(answers.subList(0, 12)).containsOnly("{\"recorded\":true}");
        assertThat(answers.subList(12, 24)).containsOnly("{\"recorded\":false}");
        List<Map<String, AttributeValue>> feed = feed();
        assertThat(feed).extracting(item -> item.get("eventId").s())
                .containsExactlyElementsOf(newestFirst.stream().map(e -> e.get("id").asText()).toList());
        assertThat(feed.get(0).get("detailType").s()).isEqualTo("PostCreated");
        assertThat(JSON.readTree(feed.get(0).get("detail").s()).get("postId").asText()).isEqualTo("post-11");
        Map<String, AttributeValue> seen = dynamoDb.getItem(request -> request.tableName(table)
                .key(ActivityFeed.seenKey(events.get(0).get("id").asText())).consistentRead(true)).item();
        assertThat(Long.parseLong(seen.get("ttl").n())).isEqualTo(NOW.plus(ActivityFeed.SEEN_FOR).getEpochSecond());
        assertThat(Long.parseLong(feed.get(0).get("ttl").n())).isEqualTo(NOW.plus(ActivityFeed.FEED_FOR).getEpochSecond());
    }

    @Test
    void aRepublishedEvent_withANewEnvelopeIdAndTheSameDetailEventId_isDropped() throws Exception {
        ObjectNode first = event(40);
        ((ObjectNode) first.get("detail")).put("eventId", "49e4a2c1-stream-record:PostCreated:post-40");
        ObjectNode republished = first.deepCopy().put("id", "another-putevents-entry");
        String own = LocalDynamoDb.createActivityTable();
        ActivityFeedHandler subscriber = new ActivityFeedHandler(dynamoDb, own, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(subscriber.record(first)).isTrue();
        assertThat(subscriber.record(republished)).isFalse();

        assertThat(feed(own)).extracting(item -> item.get("eventId").s())
                .containsExactly("49e4a2c1-stream-record:PostCreated:post-40");
        Map<String, AttributeValue> seen = dynamoDb.getItem(request -> request.tableName(own)
                .key(ActivityFeed.seenKey("49e4a2c1-stream-record:PostCreated:post-40")).consistentRead(true)).item();
        assertThat(Long.parseLong(seen.get("ttl").n()) - NOW.getEpochSecond())
                .as("the mark outlives the stream's 24 hours and a rule's 24 hours of retries")
                .isGreaterThanOrEqualTo(Duration.ofHours(48).toSeconds());
    }

    @Test
    void anEventAboutPublicData_goesIntoThePublicFeedToo_cutDown_aPrivateOneOnlyIntoTheWholeFeed() throws Exception {
        String own = LocalDynamoDb.createActivityTable();
        ActivityFeedHandler subscriber = new ActivityFeedHandler(dynamoDb, own, Clock.fixed(NOW, ZoneOffset.UTC));
        ObjectNode comment = JSON.createObjectNode().put("id", "env-1").put("detail-type", "CommentAdded")
                .put("source", "io.tally").put("time", "2026-03-01T09:00:01Z");
        comment.putObject("detail").put("eventId", "rec-1:CommentAdded:c1").put("commentId", "c1").put("postId", "p1")
                .put("authorId", "bob").put("createdAt", "2026-03-01T09:00:00.000Z").put("postUserId", "alice");
        ObjectNode favourite = JSON.createObjectNode().put("id", "env-2").put("detail-type", "FavouriteCollected")
                .put("source", "io.tally").put("time", "2026-03-01T09:00:02Z");
        favourite.putObject("detail").put("eventId", "rec-2:FavouriteCollected:alice/f1").put("userId", "alice")
                .put("favouriteId", "f1").put("type", "note").put("title", "Secret trip")
                .put("clippedAt", "2026-03-01T09:00:00.000Z");
        ObjectNode foreign = JSON.createObjectNode().put("id", "env-3").put("detail-type", "SomethingElse")
                .put("source", "elsewhere").put("time", "2026-03-01T09:00:03Z");
        foreign.putObject("detail").put("secret", "x");

        assertThat(subscriber.record(comment)).isTrue();
        assertThat(subscriber.record(favourite)).isTrue();
        assertThat(subscriber.record(foreign)).isTrue();

        assertThat(feed(own)).extracting(item -> item.get("detailType").s())
                .containsExactly("SomethingElse", "FavouriteCollected", "CommentAdded");
        List<Map<String, AttributeValue>> publicFeed = feed(own, ActivityFeed.PUBLIC_FEED_PK);
        assertThat(publicFeed).extracting(item -> item.get("detailType").s()).containsExactly("CommentAdded");
        assertThat(JSON.readTree(publicFeed.get(0).get("detail").s())).isEqualTo(JSON.readTree(
                "{\"eventId\":\"rec-1:CommentAdded:c1\",\"commentId\":\"c1\",\"postId\":\"p1\","
                        + "\"createdAt\":\"2026-03-01T09:00:00.000Z\",\"postUserId\":\"alice\"}"));
        assertThat(subscriber.record(comment.deepCopy().put("id", "env-4"))).as("a duplicate, in neither feed again")
                .isFalse();
        assertThat(feed(own, ActivityFeed.PUBLIC_FEED_PK)).hasSize(1);
    }

    @Test
    void notAnEvent_isRefusedSoThatEventBridgeRetriesAndDeadLettersIt() {
        assertThatThrownBy(() -> deliver(JSON.createObjectNode().put("detail-type", "PostCreated")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'id'");
    }

    private static String deliver(ObjectNode event) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(JSON.writeValueAsBytes(event)), out, null);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static List<Map<String, AttributeValue>> feed() {
        return feed(table);
    }

    private static List<Map<String, AttributeValue>> feed(String table) {
        return feed(table, ActivityFeed.FEED_PK);
    }

    private static List<Map<String, AttributeValue>> feed(String table, String partition) {
        return dynamoDb.query(request -> request.tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                .scanIndexForward(false).consistentRead(true)).items();
    }

    private static ObjectNode event(int n) {
        ObjectNode event = JSON.createObjectNode();
        event.put("version", "0").put("id", "event-" + n).put("detail-type", "PostCreated").put("source", "io.tally")
                .put("time", String.format("2026-03-01T09:%02d:00Z", n));
        event.putObject("detail").put("postId", "post-" + n).put("userId", "user-1");
        return event;
    }
}
