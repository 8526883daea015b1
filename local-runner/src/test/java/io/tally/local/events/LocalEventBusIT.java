package io.tally.local.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.local.http.HttpFront;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * The bus over real HTTP, published to by the AWS SDK's own {@link EventBridgeClient}, with the repository's rule
 * files; its recent events read through an {@link HttpFront}, as the runner mounts them.
 */
class LocalEventBusIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path RULES = Path.of("..", "infra", "events", "rules");

    private static EventRules rules;

    @TempDir
    Path outputDir;
    private LocalEventBus bus;
    private HttpFront front;
    private EventBridgeClient client;

    @BeforeAll
    static void loadRules() {
        rules = EventRules.fromDirectory(RULES);
    }

    @BeforeEach
    void start() throws IOException {
        bus = LocalEventBus.start(LocalEventBus.Settings.of("127.0.0.1", 0, outputDir), rules);
        front = HttpFront.start("127.0.0.1", 0, "tally-writer",
                (event, context) -> APIGatewayV2HTTPResponse.builder().withStatusCode(418).build(),
                Map.of("/events", bus.recentEventsRoute()));
        client = EventBridgeClient.builder()
                .endpointOverride(bus.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTALLYTEST", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    @AfterEach
    void stop() {
        client.close();
        front.close();
        bus.close();
    }

    private static PutEventsRequestEntry entry(String detailType, String detail) {
        return PutEventsRequestEntry.builder()
                .source("io.tally")
                .detailType(detailType)
                .detail(detail)
                .eventBusName("tally")
                .build();
    }

    private PutEventsResponse put(PutEventsRequestEntry... entries) {
        return client.putEvents(request -> request.entries(entries));
    }

    /** Ten entries, one of each kind the rules tell apart, and their event ids in the detail. */
    private static List<PutEventsRequestEntry> tenEntries() {
        return List.of(
                entry("PostCreated", "{\"eventId\":\"e0\",\"postId\":\"p1\",\"userId\":\"u1\"}"),
                entry("PostStatusChanged", "{\"eventId\":\"e1\",\"postId\":\"p1\",\"from\":\"created\",\"to\":\"updated\"}"),
                entry("CommentAdded", "{\"eventId\":\"e2\",\"postId\":\"p1\",\"commentId\":\"c1\"}"),
                entry("CommentDeleted", "{\"eventId\":\"e3\",\"postId\":\"p1\",\"commentId\":\"c1\"}"),
                entry("ItemCompleted", "{\"eventId\":\"e4\",\"userId\":\"u1\",\"itemId\":\"i1\",\"correct\":true}"),
                entry("ItemCompleted", "{\"eventId\":\"e5\",\"userId\":\"u1\",\"itemId\":\"i2\",\"correct\":false}"),
                entry("ItemCompleted", "{\"eventId\":\"e6\",\"userId\":\"u2\",\"itemId\":\"i1\",\"correct\":true}"),
                entry("UserStatsChanged", "{\"eventId\":\"e7\",\"userId\":\"u1\",\"completed\":3}"),
                entry("PostCreated", "{\"eventId\":\"e8\",\"postId\":\"p2\",\"userId\":\"u2\"}"),
                PutEventsRequestEntry.builder().source("io.elsewhere").detailType("PostCreated")
                        .detail("{\"eventId\":\"e9\"}").build());
    }

    private List<JsonNode> lines(String rule) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (String line : Files.readAllLines(bus.file(rule))) {
            events.add(JSON.readTree(line));
        }
        return events;
    }

    private static List<String> eventIds(List<JsonNode> events) {
        return events.stream().map(event -> event.at("/detail/eventId").asText()).toList();
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(front.baseUri() + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).GET().build(), BodyHandlers.ofString());
    }

    @Test
    void putEvents_tenValidEntries_answersTenEventIds() {
        PutEventsResponse response = put(tenEntries().toArray(PutEventsRequestEntry[]::new));

        assertThat(response.failedEntryCount()).isZero();
        assertThat(response.entries()).hasSize(10).allSatisfy(result -> {
            assertThat(result.eventId()).isNotBlank();
            assertThat(result.errorCode()).isNull();
        });
        assertThat(response.entries()).extracting(PutEventsResultEntry::eventId).doesNotHaveDuplicates();
    }

    @Test
    void putEvents_tenValidEntries_appendsEachToTheFilesOfExactlyTheRulesItMatches() throws IOException {
        put(tenEntries().toArray(PutEventsRequestEntry[]::new));

        assertThat(eventIds(lines("all-tally-events")))
                .containsExactly("e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8");
        assertThat(eventIds(lines("post-activity"))).containsExactly("e0", "e1", "e2", "e3", "e8");
        assertThat(eventIds(lines("item-completed"))).containsExactly("e4", "e5", "e6");
        // The content filter: only completions whose detail says correct: true.
        assertThat(eventIds(lines("correct-completions"))).containsExactly("e4", "e6");
    }

    @Test
    void putEvents_validEntry_writesTheEventBridgeEnvelopeWithTheAnsweredId() throws IOException {
        Instant time = Instant.parse("2024-05-01T10:15:30.250Z");
        PutEventsResponse response = put(PutEventsRequestEntry.builder()
                .source("io.tally")
                .detailType("ItemCompleted")
                .detail("{\"eventId\":\"e1\",\"userId\":\"u1\",\"correct\":true,\"score\":{\"points\":7}}")
                .resources("arn:aws:dynamodb:us-east-1:000000000000:table/tally")
                .time(time)
                .build());

        JsonNode event = lines("correct-completions").get(0);
        assertThat(event.get("version").asText()).isEqualTo("0");
        assertThat(event.get("id").asText()).isEqualTo(response.entries().get(0).eventId());
        assertThat(event.get("detail-type").asText()).isEqualTo("ItemCompleted");
        assertThat(event.get("source").asText()).isEqualTo("io.tally");
        assertThat(event.get("account").asText()).isEqualTo("000000000000");
        assertThat(event.get("time").asText()).isEqualTo("2024-05-01T10:15:30Z");
        assertThat(event.get("region").asText()).isEqualTo("us-east-1");
        assertThat(event.get("resources")).extracting(JsonNode::asText)
                .containsExactly("arn:aws:dynamodb:us-east-1:000000000000:table/tally");
        assertThat(event.get("detail")).isEqualTo(
                JSON.readTree("{\"eventId\":\"e1\",\"userId\":\"u1\",\"correct\":true,\"score\":{\"points\":7}}"));
        assertThat(event.fieldNames()).toIterable().containsExactly(
                "version", "id", "detail-type", "source", "account", "time", "region", "resources", "detail");
    }

    @Test
    void putEvents_withoutTime_stampsTheEventWithTheCurrentSecond() throws IOException {
        Instant before = Instant.now().minusSeconds(1);

        put(entry("PostCreated", "{\"eventId\":\"e1\"}"));

        Instant stamped = Instant.parse(lines("post-activity").get(0).get("time").asText());
        assertThat(stamped).isAfter(before).isBefore(Instant.now().plusSeconds(1));
    }

    @Test
    void putEvents_defaultBusOrTheBusArn_areTheSameLocalBus() throws IOException {
        PutEventsResponse response = put(
                entry("PostCreated", "{\"eventId\":\"e1\"}").toBuilder().eventBusName("default").build(),
                entry("PostCreated", "{\"eventId\":\"e2\"}").toBuilder()
                        .eventBusName("arn:aws:events:us-east-1:000000000000:event-bus/tally").build(),
                entry("PostCreated", "{\"eventId\":\"e3\"}").toBuilder().eventBusName(null).build());

        assertThat(response.failedEntryCount()).isZero();
        assertThat(eventIds(lines("post-activity"))).containsExactly("e1", "e2", "e3");
    }

    @Test
    void putEvents_invalidEntriesAmongValidOnes_failAloneWithTheServiceErrorCodes() throws IOException {
        PutEventsResponse response = put(
                entry("PostCreated", "{\"eventId\":\"ok-1\"}"),
                entry("PostCreated", "not json"),
                entry("PostCreated", "[\"an\",\"array\"]"),
                entry("PostCreated", "{\"eventId\":\"no-source\"}").toBuilder().source(null).build(),
                entry("PostCreated", "{\"eventId\":\"no-type\"}").toBuilder().detailType(null).build(),
                entry("PostCreated", null),
                entry("PostCreated", "{\"eventId\":\"wrong-bus\"}").toBuilder().eventBusName("orders").build(),
                entry("CommentAdded", "{\"eventId\":\"ok-2\"}"));

        assertThat(response.failedEntryCount()).isEqualTo(6);
        List<PutEventsResultEntry> results = response.entries();
        assertThat(results).hasSize(8);
        assertThat(results.get(0).eventId()).isNotBlank();
        assertThat(results.get(1).errorCode()).isEqualTo("MalformedDetail");
        assertThat(results.get(1).errorMessage()).isEqualTo("Detail is malformed.");
        assertThat(results.get(2).errorCode()).isEqualTo("MalformedDetail");
        assertThat(results.get(3).errorCode()).isEqualTo("InvalidArgument");
        assertThat(results.get(3).errorMessage())
                .isEqualTo("Parameter Source is not valid. Reason: Source is a required argument.");
        assertThat(results.get(4).errorMessage())
                .isEqualTo("Parameter DetailType is not valid. Reason: DetailType is a required argument.");
        assertThat(results.get(5).errorMessage())
                .isEqualTo("Parameter Detail is not valid. Reason: Detail is a required argument.");
        assertThat(results.get(6).errorCode()).isEqualTo("InvalidArgument");
        assertThat(results.get(6).errorMessage()).isEqualTo("Event bus orders does not exist.");
        assertThat(results.get(7).eventId()).isNotBlank();
        for (int i = 1; i <= 6; i++) {
            assertThat(results.get(i).eventId()).as("entry %d", i).isNull();
        }
        assertThat(eventIds(lines("all-tally-events"))).containsExactly("ok-1", "ok-2");
        assertThat(bus.recentEvents(10)).extracting(MatchedEvent::id)
                .containsExactly(results.get(7).eventId(), results.get(0).eventId());
    }

    @Test
    void putEvents_entriesAtTheSizeLimit_areAccepted() {
        // Source + DetailType + Detail, in UTF-8 bytes, as EventBridge counts an entry.
        String prefix = "{\"eventId\":\"big\",\"padding\":\"";
        int padding = PutEvents.MAX_ENTRIES_BYTES - "io.tally".length() - "PostCreated".length()
                - prefix.length() - "\"}".length();
        String detail = prefix + "x".repeat(padding) + "\"}";

        PutEventsResponse response = put(entry("PostCreated", detail));

        assertThat(response.failedEntryCount()).isZero();
        assertThat(response.entries().get(0).eventId()).isNotBlank();
    }

    @Test
    void putEvents_entriesOverTheSizeLimit_failTheWholeCallAsTheServiceDoes() {
        String oversized = "{\"eventId\":\"big\",\"padding\":\"" + "x".repeat(PutEvents.MAX_ENTRIES_BYTES) + "\"}";

        assertThatThrownBy(() -> put(entry("PostCreated", "{\"eventId\":\"small\"}"), entry("PostCreated", oversized)))
                .isInstanceOfSatisfying(EventBridgeException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("Total size of the entries in the request is over the limit.");
                });
        assertThat(bus.recentEvents(10)).isEmpty();
    }

    @Test
    void putEvents_elevenEntries_failsWithTheServiceValidationError() {
        PutEventsRequestEntry[] eleven = IntStream.range(0, 11)
                .mapToObj(i -> entry("PostCreated", "{\"eventId\":\"e" + i + "\"}"))
                .toArray(PutEventsRequestEntry[]::new);

        assertThatThrownBy(() -> put(eleven))
                .isInstanceOfSatisfying(EventBridgeException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    assertThat(e.awsErrorDetails().errorMessage())
                            .contains("Member must have length less than or equal to 10");
                });
        assertThat(bus.recentEvents(20)).isEmpty();
    }

    @Test
    void unknownTarget_answers400UnknownOperationException() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(bus.endpoint())
                .header("X-Amz-Target", "AWSEvents.PutRule")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(BodyPublishers.ofString("{\"Name\":\"r\"}"))
                .build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/x-amz-json-1.1");
        assertThat(JSON.readTree(response.body()).get("__type").asText()).isEqualTo("UnknownOperationException");
    }

    @Test
    void bodyThatIsNotJson_answers400WithTheServiceErrorShape() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(bus.endpoint())
                .header("X-Amz-Target", "AWSEvents.PutEvents")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(BodyPublishers.ofString("{\"Entries\": ["))
                .build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.get("__type").asText()).isEqualTo("SerializationException");
        assertThat(error.get("message").asText()).isNotBlank();
    }

    @Test
    void getRequest_isNoOperationOfTheBus() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(bus.endpoint()).GET().build(),
                BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("__type").asText()).isEqualTo("UnknownOperationException");
    }

    @Test
    void getEvents_afterPutEvents_listsThemNewestFirstWithTheirRules() throws Exception {
        PutEventsResponse first = put(entry("PostCreated", "{\"eventId\":\"e1\"}"));
        PutEventsResponse second = put(
                entry("ItemCompleted", "{\"eventId\":\"e2\",\"correct\":true}"),
                PutEventsRequestEntry.builder().source("io.elsewhere").detailType("Other").detail("{\"eventId\":\"e3\"}")
                        .build());

        HttpResponse<String> response = get("/events");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode items = JSON.readTree(response.body()).get("items");
        assertThat(items).hasSize(3);
        assertThat(items.get(0).at("/event/id").asText()).isEqualTo(second.entries().get(1).eventId());
        assertThat(items.get(0).get("rules")).as("an event no rule matches is listed too").isEmpty();
        assertThat(items.get(1).at("/event/id").asText()).isEqualTo(second.entries().get(0).eventId());
        assertThat(items.get(1).get("rules")).extracting(JsonNode::asText)
                .containsExactly("activity-feed", "all-tally-events", "correct-completions", "item-completed");
        assertThat(items.get(2).at("/event/id").asText()).isEqualTo(first.entries().get(0).eventId());
        assertThat(items.get(2).get("rules")).extracting(JsonNode::asText)
                .containsExactly("activity-feed", "all-tally-events", "post-activity");
        assertThat(items.get(2).at("/event/detail")).isEqualTo(JSON.readTree("{\"eventId\":\"e1\"}"));
    }

    @Test
    void getEvents_withLimit_returnsTheNewestOnly() throws Exception {
        put(IntStream.range(0, 5)
                .mapToObj(i -> entry("PostCreated", "{\"eventId\":\"e" + i + "\"}"))
                .toArray(PutEventsRequestEntry[]::new));

        JsonNode items = JSON.readTree(get("/events?limit=2").body()).get("items");

        assertThat(items).extracting(item -> item.at("/event/detail/eventId").asText()).containsExactly("e4", "e3");
    }

    @Test
    void getEvents_badLimit_answers400WithTheContractError() throws Exception {
        for (String limit : List.of("0", "1001", "abc", "-1", "", "1,2")) {
            HttpResponse<String> response = get("/events?limit=" + limit);

            assertThat(response.statusCode()).as("limit=%s", limit).isEqualTo(400);
            JsonNode error = JSON.readTree(response.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("bad_request");
            assertThat(error.get("field").asText()).isEqualTo("limit");
            assertThat(error.get("message").asText()).contains("1 to 1000");
        }
    }

    @Test
    void start_onATakenPort_failsWithBindException() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));

            assertThatThrownBy(() -> LocalEventBus.start(
                    LocalEventBus.Settings.of("127.0.0.1", taken.getLocalPort(), outputDir), rules))
                    .isInstanceOf(BindException.class);
        }
    }

    @Test
    void start_createsAnEmptyFilePerRule_soItCanBeFollowedBeforeTheFirstEvent() {
        assertThat(rules.names()).allSatisfy(rule -> {
            assertThat(bus.file(rule)).isRegularFile().isEmptyFile();
            assertThat(bus.file(rule).getParent()).isEqualTo(outputDir.toAbsolutePath().normalize());
        });
    }
}
