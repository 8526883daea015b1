package io.tally.local;

import io.tally.core.users.Users;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.template.DeploymentTemplate;
import io.tally.local.stream.EsmSettings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;

/** The runner in this JVM on free ports, driven over real HTTP and inspected with the real AWS SDK. */
class LocalRunnerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static LocalRunner runner;

    @BeforeAll
    static void start() {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private record Reply(int status, JsonNode body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        String errorCode() {
            return body.at("/error/code").asText();
        }
    }

    private static Reply call(URI base, String method, String path, String body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        HttpResponse<String> response = HTTP.send(request.build(), BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body().isEmpty() ? null : JSON.readTree(response.body()), response);
    }

    private static Reply call(String method, String path, String body) throws IOException, InterruptedException {
        return call(runner.baseUri(), method, path, body, Map.of());
    }

    private static String newUserId() {
        return "user-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static DynamoDbClient sdkClient(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.EU_WEST_1)
                // Any credentials will do with -sharedDb, but DynamoDB Local wants a key id of letters and digits.
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTALLYTEST", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    @Test
    void start_onPortZero_exposesTheChosenPortsAndUrls() {
        assertThat(runner.port()).isPositive();
        assertThat(runner.dynamoDbPort()).isPositive().isNotEqualTo(runner.port());
        assertThat(runner.baseUri()).isEqualTo(URI.create("http://127.0.0.1:" + runner.port()));
        assertThat(runner.dynamoDbEndpoint()).isEqualTo(URI.create("http://127.0.0.1:" + runner.dynamoDbPort()));
        assertThat(runner.dataDir()).isEmpty();
        assertThat(runner.tableCreated()).isTrue();
        assertThat(runner.eventsEndpoint()).isEqualTo(URI.create("http://127.0.0.1:" + runner.eventBus().port()));
        assertThat(runner.eventBus().port()).isPositive().isNotIn(runner.port(), runner.dynamoDbPort());
        assertThat(runner.eventBusName()).isEqualTo("tally");
        assertThat(runner.summary())
                .contains(runner.baseUri().toString())
                .contains("aws dynamodb scan --table-name tally --endpoint-url " + runner.dynamoDbEndpoint())
                .contains("events          " + runner.eventsEndpoint() + " (EventBridge PutEvents), GET "
                        + runner.baseUri() + "/events")
                .contains("rules from classpath:/rules: activity-feed, all-tally-events, correct-completions, "
                        + "item-completed, post-activity")
                .contains("removed when stopped")
                .contains("in memory")
                .contains("access          open")
                .contains("Ctrl-C to stop");
    }

    @Test
    void eventsPublishedWithTheSdk_areListedAtGetEventsOnTheWriterPort() throws Exception {
        String marker = UUID.randomUUID().toString();
        String eventId;
        try (EventBridgeClient events = EventBridgeClient.builder()
                .endpointOverride(runner.eventsEndpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTALLYTEST", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            PutEventsResponse response = events.putEvents(r -> r.entries(PutEventsRequestEntry.builder()
                    .eventBusName(runner.eventBusName())
                    .source("io.tally")
                    .detailType("CommentAdded")
                    .detail("{\"eventId\":\"" + marker + "\"}")
                    .build()));
            assertThat(response.failedEntryCount()).isZero();
            eventId = response.entries().get(0).eventId();
        }

        Reply listed = call("GET", "/events?limit=1000", null);

        assertThat(listed.status()).isEqualTo(200);
        JsonNode item = null;
        for (JsonNode candidate : listed.body().get("items")) {
            if (candidate.at("/event/id").asText().equals(eventId)) {
                item = candidate;
            }
        }
        assertThat(item).as("event %s in GET /events", eventId).isNotNull();
        assertThat(item.at("/event/detail/eventId").asText()).isEqualTo(marker);
        assertThat(item.get("rules")).extracting(JsonNode::asText).containsExactly("activity-feed", "all-tally-events", "post-activity");
        assertThat(Files.readString(runner.eventBus().file("post-activity"))).contains(marker);
    }

    @Test
    void eventsPortInUse_failsWithAClearMessage() throws Exception {
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> LocalRunner.start(RunnerSettings.ephemeral().withEventsPort(port)))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessage("port " + port + " on 127.0.0.1 is already in use; pass --events-port to choose another");
        }
    }

    @Test
    void rulesDirWithABrokenFile_failsNamingTheFileBeforeStartingAnything(@TempDir Path rules) throws Exception {
        Files.writeString(rules.resolve("broken.json"), "{\"Name\":\"broken\",\"EventPattern\":{\"source\":\"io.tally\"}}");
        int port;
        try (ServerSocket probe = occupy()) {
            port = probe.getLocalPort();
        }

        assertThatThrownBy(() -> LocalRunner.start(RunnerSettings.ephemeral().withRulesDir(rules)
                .withDynamoDbPort(port)))
                .isInstanceOf(StartupException.class)
                .hasMessageStartingWith("rule file " + rules.toAbsolutePath().normalize().resolve("broken.json"))
                .hasMessageContaining("EventPattern is not valid");
        assertThat(listening(port)).as("DynamoDB Local not started").isFalse();
    }

    @Test
    void eventFiles_withoutDataDir_areInATemporaryDirectoryRemovedOnClose() {
        Path eventsDir;
        try (LocalRunner temporary = LocalRunner.start(RunnerSettings.ephemeral())) {
            eventsDir = temporary.eventBus().outputDir();
            assertThat(temporary.eventBus().file("all-tally-events")).exists();
        }

        assertThat(eventsDir).doesNotExist();
    }

    @Test
    void createUser_thenGet_overHttp() throws Exception {
        String userId = newUserId();

        Reply created = call("POST", "/users", "{\"userId\":\"" + userId + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");

        assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        assertThat(created.body().get("userId").asText()).isEqualTo(userId);
        assertThat(created.header("location")).isEqualTo("/users/" + userId);
        assertThat(created.header("etag")).isEqualTo("\"1\"");
        assertThat(created.header("content-type")).isEqualTo("application/json");

        Reply read = call("GET", "/users/" + userId, null);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(created.body());
    }

    @Test
    void createUser_withoutId_generatesOne() throws Exception {
        Reply created = call("POST", "/users", "{\"name\":\"Grace\",\"email\":\"grace@example.com\"}");

        assertThat(created.status()).isEqualTo(201);
        String userId = created.body().get("userId").asText();
        assertThat(call("GET", "/users/" + userId, null).body().get("name").asText()).isEqualTo("Grace");
    }

    @Test
    void patchUser_withIfMatch_updatesOnceThenRejectsTheStaleVersion() throws Exception {
        String userId = newUserId();
        call("POST", "/users", "{\"userId\":\"" + userId + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");

        Reply patched = call(runner.baseUri(), "PATCH", "/users/" + userId, "{\"name\":\"Ada Lovelace\"}",
                Map.of("If-Match", "\"1\""));
        assertThat(patched.status()).as("%s", patched.body()).isEqualTo(200);
        assertThat(patched.body().get("name").asText()).isEqualTo("Ada Lovelace");
        assertThat(patched.body().get("version").asLong()).isEqualTo(2);
        assertThat(patched.header("etag")).isEqualTo("\"2\"");

        Reply stale = call(runner.baseUri(), "PATCH", "/users/" + userId, "{\"name\":\"Someone else\"}",
                Map.of("If-Match", "\"1\""));
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.errorCode()).isEqualTo("precondition_failed");
        assertThat(call("GET", "/users/" + userId, null).body().get("name").asText()).isEqualTo("Ada Lovelace");
    }

    @Test
    void unknownRoute_answers404Json() throws Exception {
        Reply reply = call("GET", "/no/such/route", null);

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.header("content-type")).isEqualTo("application/json");
        assertThat(reply.errorCode()).isEqualTo("not_found");
    }

    @Test
    void bodyAboveTheContractLimit_answers413FromTheWriter() throws Exception {
        String name = "x".repeat(70 * 1024);

        Reply reply = call("POST", "/users", "{\"name\":\"" + name + "\",\"email\":\"a@example.com\"}");

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.errorCode()).isEqualTo("payload_too_large");
    }

    @Test
    void tableAndStreamPoller_followTheDeploymentTemplate() {
        // The template is the one source of both: the table the runner created and the poller's settings.
        DeploymentTemplate template = DeploymentTemplate.read(Path.of("..", "infra", "template.yaml"));
        CreateTableRequest declared = TableDefinition.fromTemplate(template, "tally");

        try (DynamoDbClient dynamo = sdkClient(runner.dynamoDbEndpoint())) {
            TableDescription table = dynamo.describeTable(r -> r.tableName("tally")).table();
            assertThat(table.keySchema()).isEqualTo(declared.keySchema());
            assertThat(table.attributeDefinitions()).containsExactlyInAnyOrderElementsOf(declared.attributeDefinitions());
            assertThat(table.globalSecondaryIndexes())
                    .extracting(i -> i.indexName() + i.keySchema() + i.projection().projectionTypeAsString())
                    .containsExactlyInAnyOrderElementsOf(declared.globalSecondaryIndexes().stream()
                            .map(i -> i.indexName() + i.keySchema() + i.projection().projectionTypeAsString()).toList());
            assertThat(table.localSecondaryIndexes())
                    .extracting(i -> i.indexName() + i.keySchema() + i.projection().projectionTypeAsString())
                    .containsExactlyInAnyOrderElementsOf(declared.localSecondaryIndexes().stream()
                            .map(i -> i.indexName() + i.keySchema() + i.projection().projectionTypeAsString()).toList());
            assertThat(table.streamSpecification().streamViewType())
                    .isEqualTo(declared.streamSpecification().streamViewType());
        }
        assertThat(runner.streamSettings()).isEqualTo(EsmSettings.fromTemplate(template));
    }

    @Test
    void table_existsOnTheDynamoDbEndpointWithTheItemsWrittenOverHttp() throws Exception {
        String userId = newUserId();
        call("POST", "/users", "{\"userId\":\"" + userId + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");

        try (DynamoDbClient dynamo = sdkClient(runner.dynamoDbEndpoint())) {
            TableDescription table = dynamo.describeTable(r -> r.tableName("tally")).table();
            assertThat(table.tableStatus()).isEqualTo(TableStatus.ACTIVE);
            assertThat(table.globalSecondaryIndexes()).extracting(index -> index.indexName())
                    .contains(TableSchema.CYCLE_SELECTOR_INDEX);
            assertThat(table.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);

            Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName("tally")
                    .key(Users.key(userId).toAttributeMap())).item();
            assertThat(item).containsEntry("name", AttributeValue.fromS("Ada"));
        }
    }

    @Test
    void httpPortInUse_failsWithAClearMessageAndStartsNothing() throws Exception {
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> LocalRunner.start(RunnerSettings.ephemeral().withPort(port)))
                    .isInstanceOfSatisfying(PortInUseException.class, e -> {
                        assertThat(e.port()).isEqualTo(port);
                        assertThat(e.host()).isEqualTo("127.0.0.1");
                    })
                    .hasMessage("port " + port + " on 127.0.0.1 is already in use; pass --port to choose another");
        }
    }

    @Test
    void dynamoDbPortInUse_failsWithAClearMessage() throws Exception {
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> LocalRunner.start(RunnerSettings.ephemeral().withDynamoDbPort(port)))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessage("port " + port + " on 127.0.0.1 is already in use; pass --dynamodb-port to choose another");
        }
    }

    @Test
    void restart_onTheSameDataDir_keepsTheTableAndItsItems(@TempDir Path dataDir) throws Exception {
        String userId = newUserId();
        RunnerSettings settings = RunnerSettings.ephemeral().withDataDir(dataDir).withTableName("tally-kept");
        int firstPort;
        int firstDynamoDbPort;
        try (LocalRunner first = LocalRunner.start(settings)) {
            assertThat(first.tableCreated()).isTrue();
            assertThat(first.dataDir()).contains(dataDir.toAbsolutePath());
            Reply created = call(first.baseUri(), "POST", "/users",
                    "{\"userId\":\"" + userId + "\",\"name\":\"Ada\",\"email\":\"ada@example.com\"}", Map.of());
            assertThat(created.status()).isEqualTo(201);
            firstPort = first.port();
            firstDynamoDbPort = first.dynamoDbPort();
        }
        assertThat(listening(firstPort)).as("HTTP front closed").isFalse();
        assertThat(listening(firstDynamoDbPort)).as("DynamoDB Local closed").isFalse();

        try (LocalRunner second = LocalRunner.start(settings)) {
            assertThat(second.tableCreated()).isFalse();
            Reply read = call(second.baseUri(), "GET", "/users/" + userId, null, Map.of());
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.body().get("name").asText()).isEqualTo("Ada");
            assertThat(second.summary()).contains(dataDir.toAbsolutePath().toString()).contains("table reused");
            assertThat(second.eventBus().outputDir()).isEqualTo(dataDir.toAbsolutePath().resolve("events"));
        }
    }

    private static ServerSocket occupy() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        return socket;
    }

    private static boolean listening(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 1000);
            return true;
        } catch (ConnectException e) {
            return false;
        }
    }
}
