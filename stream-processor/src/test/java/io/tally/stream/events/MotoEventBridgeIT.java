package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.Target;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The publisher against an EventBridge implementation we did not write: moto_server speaks the real
 * EventBridge and SQS wire protocols. A rule with the repository's own pattern ({@code infra/events/rules})
 * targets an SQS queue; the events read back from the queue are exactly the ones the pattern selects.
 * Runs in the {@code moto} profile only (moto_server is a Python tool, not part of the README's requirements).
 */
@Tag("moto")
class MotoEventBridgeIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Process moto;
    private static URI endpoint;

    @BeforeAll
    static void startMoto() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        moto = new ProcessBuilder("moto_server", "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(Files.createTempFile("moto", ".log").toFile())
                .start();
        endpoint = URI.create("http://127.0.0.1:" + port);
        for (int attempt = 0; ; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (attempt > 150 || !moto.isAlive()) {
                    throw new IllegalStateException("moto_server did not start on port " + port);
                }
                Thread.sleep(100);
            }
        }
    }

    @AfterAll
    static void stopMoto() {
        if (moto != null) {
            moto.destroy();
        }
    }

    @Test
    void publish_throughMoto_ruleRoutesExactlyTheMatchingEventsToSqs() throws Exception {
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
        try (EventBridgeClient events = EventBridgeClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials).httpClientBuilder(UrlConnectionHttpClient.builder()).build();
             SqsClient sqs = SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials).httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            events.createEventBus(r -> r.name("tally"));
            String queueUrl = sqs.createQueue(r -> r.queueName("post-activity")).queueUrl();
            String queueArn = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                    .attributes().get(QueueAttributeName.QUEUE_ARN);
            JsonNode rule = JSON.readTree(Path.of("..", "infra", "events", "rules", "post-activity.json").toFile());
            String pattern = JSON.writeValueAsString(rule.get("EventPattern"));
            events.putRule(r -> r.name(rule.get("Name").asText()).eventBusName("tally").eventPattern(pattern));
            events.putTargets(r -> r.rule(rule.get("Name").asText()).eventBusName("tally")
                    .targets(Target.builder().id("queue").arn(queueArn).build()));

            List<DomainEvent> published = new ArrayList<>();
            for (int i = 0; i < 23; i++) {
                String type = i % 4 == 3 ? "ItemCompleted" : "PostCreated";
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("postId", "p" + i);
                published.add(new DomainEvent(DomainEvent.idFor("record-" + i, type, "p" + i), type, detail));
            }
            List<DomainEvent> failed = new EventBridgePublisher(events, "tally", "io.tally").publish(published);
            assertThat(failed).isEmpty();

            Set<String> expected = new HashSet<>();
            published.stream().filter(e -> e.detailType().equals("PostCreated")).forEach(e -> expected.add(e.id()));
            Set<String> received = new HashSet<>();
            for (int poll = 0; poll < 50 && received.size() < expected.size(); poll++) {
                for (Message message : sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()) {
                    JsonNode event = JSON.readTree(message.body());
                    assertThat(event.get("source").asText()).isEqualTo("io.tally");
                    assertThat(event.get("detail-type").asText()).isEqualTo("PostCreated");
                    received.add(event.get("detail").get("eventId").asText());
                    sqs.deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
                }
            }
            assertThat(received).isEqualTo(expected);
        }
    }
}
