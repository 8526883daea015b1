package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.localstack.Localstack;
import cloud.localstack.docker.LocalstackDockerExtension;
import cloud.localstack.docker.annotation.LocalstackDockerProperties;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.writer.WriterConfig;
import io.tally.writer.WriterHandler;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The end-to-end pipeline against LocalStack instead of DynamoDB Local and the local bus: the writer handler
 * writes to LocalStack's DynamoDB, the local stream poller reads LocalStack's DynamoDB Streams and invokes the
 * stream handler, which publishes to LocalStack's EventBridge, where the deployment's post-activity rule routes
 * to an SQS queue. Derived data is then compared with the rebuild oracle.
 *
 * <p>Needs Docker: run with {@code mvn verify -Plocalstack -pl local-runner -am}. The default build neither
 * compiles nor runs it (its source folder and the localstack-utils dependency exist only in the profile, and the
 * tag is excluded otherwise).
 */
@Tag("localstack")
@ExtendWith(LocalstackDockerExtension.class)
@LocalstackDockerProperties(services = {"dynamodb", "dynamodbstreams", "events", "sqs"})
class LocalStackPipelineIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "tally";
    private static final String BUS = "tally";
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    @Test
    void writesThroughTheHandler_streamDrained_derivedDataExactAndEventsRouted() throws Exception {
        URI endpoint = URI.create(Localstack.INSTANCE.getEndpointDynamoDB());
        try (DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                     .credentialsProvider(CREDENTIALS).httpClient(UrlConnectionHttpClient.create()).build();
             EventBridgeClient events = EventBridgeClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                     .credentialsProvider(CREDENTIALS).httpClient(UrlConnectionHttpClient.create()).build();
             SqsClient sqs = SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                     .credentialsProvider(CREDENTIALS).httpClient(UrlConnectionHttpClient.create()).build();
             DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder().endpointOverride(endpoint)
                     .region(Region.US_EAST_1).credentialsProvider(CREDENTIALS)
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            dynamo.createTable(TableDefinition.createTableRequest(TABLE));
            dynamo.waiter().waitUntilTableExists(r -> r.tableName(TABLE));

            // The deployment's post-activity rule (infra/events/rules/post-activity.json) routing to a queue.
            events.createEventBus(r -> r.name(BUS));
            String queueUrl = sqs.createQueue(r -> r.queueName("post-activity")).queueUrl();
            String queueArn = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl)
                    .attributeNames(QueueAttributeName.QUEUE_ARN)).attributes().get(QueueAttributeName.QUEUE_ARN);
            JsonNode rule = JSON.readTree(Files.readString(Path.of("..", "infra", "events", "rules", "post-activity.json")));
            events.putRule(r -> r.name("post-activity").eventBusName(BUS)
                    .eventPattern(rule.path("EventPattern").toString()));
            events.putTargets(r -> r.rule("post-activity").eventBusName(BUS)
                    .targets(t -> t.id("queue").arn(queueArn)));

            WriterHandler writer = new WriterHandler(WriterConfig.local(TABLE, endpoint));
            write(writer, "POST", "/users", "{\"userId\":\"alice\",\"name\":\"Alice\",\"email\":\"a@example.com\"}");
            write(writer, "POST", "/users", "{\"userId\":\"bob\",\"name\":\"Bob\",\"email\":\"b@example.com\"}");
            write(writer, "POST", "/users/alice/posts", "{\"postId\":\"p1\",\"title\":\"One\",\"body\":\"first\"}");
            write(writer, "POST", "/users/alice/posts/p1/comments", "{\"authorId\":\"bob\",\"text\":\"hi\"}");
            write(writer, "PUT", "/items/i1", "{\"title\":\"Item\",\"score\":10,\"selector\":\"back-catalogue\"}");
            write(writer, "PUT", "/users/alice/items/i1", "{\"state\":\"completed\",\"correct\":true}");

            try (StreamPipeline pipeline = StreamPipeline.create(endpoint, TABLE, endpoint, BUS, null)) {
                pipeline.start();
                pipeline.awaitDrained(Duration.ofMinutes(2));
            }

            // LocalStack's stream is asynchronous, as on AWS: give the open shard time to show its last records.
            VerificationReport report = new Rebuilder(dynamo, streams, TABLE,
                    DomainRegistry.load().derivations(ShardSettings.DEFAULTS), 1).withStreamSettle(Duration.ofSeconds(2)).verify();
            assertThat(report.differences()).isEmpty();
            assertThat(report.behindItems()).isZero();
            assertThat(report.derivedItems()).isPositive();

            JsonNode stats = JSON.readTree(write(writer, "GET", "/stats/users/alice", null).getBody());
            assertThat(stats.path("posts").asLong()).isEqualTo(1);
            assertThat(stats.path("completed").asLong()).isEqualTo(1);
            assertThat(stats.path("correctGuesses").asLong()).isEqualTo(1);

            List<String> detailTypes = new ArrayList<>();
            // EventBridge delivers to the queue asynchronously: up to 15 long polls of 2 s each.
            for (int poll = 0; poll < 15 && detailTypes.size() < 2; poll++) {
                for (Message message : sqs.receiveMessage(r -> r.queueUrl(queueUrl).waitTimeSeconds(2)
                        .maxNumberOfMessages(10)).messages()) {
                    detailTypes.add(JSON.readTree(message.body()).path("detail-type").asText());
                }
            }
            assertThat(detailTypes).containsExactlyInAnyOrder("PostCreated", "CommentAdded");
        }
    }

    private static APIGatewayV2HTTPResponse write(WriterHandler writer, String method, String path, String body) {
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(path)
                .withHeaders(Map.of("content-type", "application/json"))
                .withBody(body)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method).withPath(path).build())
                        .build())
                .build();
        APIGatewayV2HTTPResponse response = writer.handleRequest(event, null);
        assertThat(response.getStatusCode()).as(method + " " + path + ": " + response.getBody()).isLessThan(300);
        return response;
    }
}
