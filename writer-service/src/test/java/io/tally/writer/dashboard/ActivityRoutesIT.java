package io.tally.writer.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.activity.ActivityFeed;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.PublicEvents;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Caller;
import io.tally.core.http.Router;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /activity} against the feed's own table on DynamoDB Local: newest first, as many as asked; with access
 * control on, the whole feed for an admin and the public one for anyone else.
 */
class ActivityRoutesIT {
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private static final PublicEvents PUBLIC = PublicEvents.of(DomainRegistry.load().events());
    private static final Caller ADMIN = new Caller("boss", Set.of("admin"), Set.of());
    private static final Caller USER = new Caller("u1", Set.of("staff"), Set.of());

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final String table = LocalDynamoDb.createActivityTable();

    private void put(Map<String, AttributeValue> item) {
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private static JsonNode feed(Router router, Caller caller, String limit) {
        ApiRequest request = new ApiRequest("GET", "/activity", Map.of(), limit == null ? Map.of() : Map.of("limit",
                limit), Map.of(), null, caller);
        Router.Match match = router.match("GET", "/activity");
        ApiResponse response = match.handler().handle(request.withPathParameters(match.pathParameters()));
        assertThat(response.status()).isEqualTo(200);
        return response.body().path("items");
    }

    private Router router(boolean byCaller) {
        Router router = new Router();
        ActivityRoutes.register(router, new ActivityStore(dynamo, table), PUBLIC, byCaller);
        return router;
    }

    private static List<String> ids(JsonNode items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.path("eventId").asText()));
        return ids;
    }

    @Test
    void feed_newestFirst_limited() {
        for (int i = 1; i <= 3; i++) {
            put(ActivityFeed.feedItem("ev-" + i, "PostCreated", "2026-11-23T10:00:0" + i + ".000Z", "{\"n\":" + i + "}",
                    NOW));
        }
        assertThat(ids(feed(router(false), Caller.ANONYMOUS, "2"))).containsExactly("ev-3", "ev-2");
    }

    @Test
    void withAccessControl_anAdminReadsTheWholeFeed_anyoneElseThePublicOne() {
        put(ActivityFeed.feedItem("ev-1", "PostCreated", "2026-11-23T10:00:01.000Z",
                "{\"eventId\":\"ev-1\",\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\"}", NOW));
        put(ActivityFeed.publicFeedItem("ev-1", "PostCreated", "2026-11-23T10:00:01.000Z",
                "{\"eventId\":\"ev-1\",\"postId\":\"p1\",\"userId\":\"u1\",\"title\":\"T\"}", NOW));
        put(ActivityFeed.feedItem("ev-2", "EmployeeCreated", "2026-11-23T10:00:02.000Z",
                "{\"eventId\":\"ev-2\",\"employeeId\":\"maureen\",\"orgId\":\"abc\",\"name\":\"Maureen\"}", NOW));
        put(ActivityFeed.feedItem("ev-3", "FavouriteCollected", "2026-11-23T10:00:03.000Z",
                "{\"eventId\":\"ev-3\",\"userId\":\"u1\",\"favouriteId\":\"f1\",\"title\":\"Secret trip\"}", NOW));
        Router router = router(true);

        assertThat(ids(feed(router, ADMIN, null))).containsExactly("ev-3", "ev-2", "ev-1");
        assertThat(ids(feed(router, Caller.ANONYMOUS, null))).containsExactly("ev-1");
        assertThat(ids(feed(router, USER, null))).as("a signed-in user who is not an admin").containsExactly("ev-1");
        assertThat(feed(router, Caller.ANONYMOUS, null).toString()).doesNotContain("Maureen", "Secret trip");
        assertThat(ids(feed(router(false), Caller.ANONYMOUS, null))).as("access control off: all open")
                .containsExactly("ev-3", "ev-2", "ev-1");
    }

    @Test
    void thePublicFeed_isCheckedAgainOnRead_privateTypesLeftOut_withheldFieldsDropped() {
        // As an older or a misconfigured subscriber might have written them.
        put(ActivityFeed.publicFeedItem("ev-1", "EmployeeCreated", "2026-11-23T10:00:01.000Z",
                "{\"eventId\":\"ev-1\",\"employeeId\":\"maureen\",\"name\":\"Maureen\"}", NOW));
        put(ActivityFeed.publicFeedItem("ev-2", "CommentAdded", "2026-11-23T10:00:02.000Z",
                "{\"eventId\":\"ev-2\",\"commentId\":\"c1\",\"postId\":\"p1\",\"authorId\":\"bob\","
                        + "\"createdAt\":\"2026-11-23T10:00:02.000Z\",\"postUserId\":\"u1\",\"extra\":\"x\"}", NOW));
        put(ActivityFeed.publicFeedItem("ev-3", "SomethingElse", "2026-11-23T10:00:03.000Z", "{\"eventId\":\"ev-3\"}",
                NOW));

        JsonNode items = feed(router(true), Caller.ANONYMOUS, null);

        assertThat(ids(items)).containsExactly("ev-2");
        JsonNode detail = items.get(0).path("detail");
        assertThat(detail.has("authorId")).isFalse();
        assertThat(detail.has("extra")).isFalse();
        assertThat(detail.path("postId").asText()).isEqualTo("p1");
        assertThat(detail.path("postUserId").asText()).isEqualTo("u1");
    }
}
