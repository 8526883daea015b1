package io.tally.local.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
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

/**
 * A bus told its callers' credentials, over real HTTP: the AWS SDK's own client signed with them publishes; one signed
 * with another secret or another key id, or a request with no signature, is refused as EventBridge refuses it, and
 * nothing it sent reaches the recent events.
 */
class BusCallersIT {
    private static final AwsBasicCredentials RUNNERS = AwsBasicCredentials.create("TALLYBUS7Q2", "s3cr3t-of-this-run");
    private static final PutEventsRequestEntry ENTRY = PutEventsRequestEntry.builder().source("io.tally")
            .detailType("PostCreated").detail("{\"eventId\":\"e1\",\"postId\":\"p1\"}").eventBusName("tally").build();

    @TempDir
    Path outputDir;
    private LocalEventBus bus;

    @BeforeEach
    void start() throws IOException {
        bus = LocalEventBus.start(LocalEventBus.Settings.of("127.0.0.1", 0, outputDir).withCallers(RUNNERS),
                EventRules.fromDirectory(Path.of("..", "infra", "events", "rules")));
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    private EventBridgeClient client(AwsBasicCredentials credentials) {
        return EventBridgeClient.builder().endpointOverride(bus.endpoint()).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Test
    void theRunnersCredentials_publish() {
        try (EventBridgeClient client = client(RUNNERS)) {
            assertThat(client.putEvents(request -> request.entries(ENTRY)).failedEntryCount()).isZero();
        }
        assertThat(bus.recentEvents(10)).hasSize(1);
    }

    @Test
    void anotherSecret_isAnInvalidSignature_anotherKeyIdUnrecognized_andNothingArrives() {
        try (EventBridgeClient forger = client(AwsBasicCredentials.create(RUNNERS.accessKeyId(), "guessed"))) {
            assertThatThrownBy(() -> forger.putEvents(request -> request.entries(ENTRY)))
                    .isInstanceOfSatisfying(EventBridgeException.class, e -> assertThat(
                            e.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException"));
        }
        try (EventBridgeClient stranger = client(AwsBasicCredentials.create("local", "local"))) {
            assertThatThrownBy(() -> stranger.putEvents(request -> request.entries(ENTRY)))
                    .isInstanceOfSatisfying(EventBridgeException.class, e -> assertThat(
                            e.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException"));
        }
        assertThat(bus.recentEvents(10)).isEmpty();
    }

    @Test
    void noSignature_isRefused() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(bus.endpoint())
                .header("Content-Type", LocalEventBus.CONTENT_TYPE).header("X-Amz-Target", PutEvents.TARGET)
                .POST(HttpRequest.BodyPublishers.ofString("{\"Entries\":[{\"Source\":\"io.tally\",\"DetailType\":"
                        + "\"PostCreated\",\"Detail\":\"{}\",\"EventBusName\":\"tally\"}]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.body()).contains("MissingAuthenticationTokenException");
        assertThat(bus.recentEvents(10)).isEmpty();
    }

    /** Signed by the runner's credentials, but changed on the way (another body), or signed long ago. */
    @Test
    void aSignedRequestChanged_orSignedLongAgo_isRefused() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        CallerCheck check = new CallerCheck(RUNNERS, Clock.fixed(now, ZoneOffset.UTC));
        URI uri = URI.create("http://127.0.0.1:8001/");
        byte[] body = "{\"Entries\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Map<String, List<String>> headers = signed(uri, body, now);
        assertThat(check.refusal("POST", uri, headers, body)).isEmpty();
        assertThat(check.refusal("POST", uri, headers, "{\"Entries\":[1]}".getBytes(
                java.nio.charset.StandardCharsets.UTF_8))).get().extracting(CallerCheck.Refusal::type)
                .isEqualTo("InvalidSignatureException");
        Map<String, List<String>> old = signed(uri, body, now.minusSeconds(16 * 60));
        assertThat(check.refusal("POST", uri, old, body)).get().extracting(CallerCheck.Refusal::message)
                .asString().startsWith("Signature expired");
    }

    /** The headers of a request the SDK's signer signs with the runner's credentials at {@code at}. */
    private static Map<String, List<String>> signed(URI uri, byte[] body, Instant at) {
        var request = software.amazon.awssdk.http.SdkHttpFullRequest.builder()
                .method(software.amazon.awssdk.http.SdkHttpMethod.POST).uri(uri)
                .putHeader("Content-Type", LocalEventBus.CONTENT_TYPE).putHeader("X-Amz-Target", PutEvents.TARGET)
                .build();
        var signed = software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.create().sign(sign -> sign
                .identity(RUNNERS).request(request)
                .payload(software.amazon.awssdk.http.ContentStreamProvider.fromByteArray(body))
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.SERVICE_SIGNING_NAME, "events")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(software.amazon.awssdk.http.auth.spi.signer.HttpSigner.SIGNING_CLOCK,
                        Clock.fixed(at, ZoneOffset.UTC))).request();
        Map<String, List<String>> headers = new java.util.HashMap<>(signed.headers());
        headers.putIfAbsent("Host", List.of(uri.getHost() + ":" + uri.getPort()));
        return headers;
    }
}
