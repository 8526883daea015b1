package io.tally.bench;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.core.users.User;
import io.tally.stream.SdkToLambdaRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The child of a cold-start run: {@code java -cp <Lambda jar>:<dir with this class> io.tally.bench.ColdStartHarness
 * <handler class> <writer|windowed|plain> <run>}. It constructs the handler as the Lambda runtime does (public
 * no-arg constructor, configuration from the environment), builds one realistic first event and hands it to the
 * handler, then prints one line starting with {@link #MARKER} and exits.
 *
 * <p>It runs with a Lambda jar and nothing else, so it uses only what both jars hold (the Lambda event classes,
 * tally-core, the SDK's AttributeValue) and the JDK, and it is one class file, with no nested or anonymous class,
 * so that the benchmark can copy it out of its own jar alone.
 */
public final class ColdStartHarness {
    static final String MARKER = "tally-cold-start";
    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    private ColdStartHarness() {
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        long started = System.nanoTime();
        String handlerClass = args[0];
        String kind = args[1];
        String run = args[2];

        RequestHandler<Object, Object> handler = (RequestHandler<Object, Object>) Class.forName(handlerClass)
                .getConstructor().newInstance();
        long constructed = System.nanoTime();

        Object event;
        if (kind.equals("writer")) {
            event = createUser(run);
        } else if (kind.equals("windowed")) {
            DynamodbTimeWindowEvent window = new DynamodbTimeWindowEvent();
            window.setShardId("shardId-cold-" + kind + "-" + run);
            window.setEventSourceArn(arn(kind, run));
            window.setState(new HashMap<>());
            window.setRecords(records(kind, run));
            event = window;
        } else if (kind.equals("plain")) {
            DynamodbEvent plain = new DynamodbEvent();
            plain.setRecords(records(kind, run));
            event = plain;
        } else {
            throw new IllegalArgumentException("unknown kind " + kind);
        }
        long built = System.nanoTime();
        Object response = handler.handleRequest(event, null);
        long invoked = System.nanoTime();

        String outcome;
        if (response instanceof APIGatewayV2HTTPResponse http) {
            outcome = "status=" + http.getStatusCode();
        } else if (response instanceof TimeWindowEventResponse windowed) {
            outcome = "failures=" + windowed.getBatchItemFailures().size();
        } else if (response instanceof StreamsEventResponse streams) {
            outcome = "failures=" + streams.getBatchItemFailures().size();
        } else {
            outcome = "unknown=" + response;
        }
        System.out.println(MARKER + " constructNanos=" + (constructed - started) + " eventNanos=" + (built - constructed)
                + " invokeNanos=" + (invoked - built) + " " + outcome);
        System.out.flush();
        // The SDK's and the engine's threads would keep the JVM alive, as in a Lambda container.
        System.exit(0);
    }

    /**
     * POST /users as API Gateway's HTTP API (payload 2.0) delivers it, with the claims its JWT authorizer verified
     * (the writer checks access unless it is told {@code AUTH_ENABLED=false}): the new user is the token's subject.
     */
    static APIGatewayV2HTTPEvent createUser(String run) {
        String body = "{\"userId\":\"user-cold-" + run + "\",\"name\":\"Cold " + run + "\",\"email\":\"cold" + run
                + "@example.com\"}";
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath("/users")
                .withHeaders(Map.of("content-type", "application/json", "user-agent", "tally-bench"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod("POST").withPath("/users").withProtocol("HTTP/1.1")
                                .withSourceIp("127.0.0.1").build())
                        .withRequestId("cold-" + run)
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                                .withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                                        .withClaims(Map.of("sub", "user-cold-" + run,
                                                "iss", "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_bench",
                                                "client_id", "tally-bench", "token_use", "access"))
                                        .build())
                                .build())
                        .build())
                .withBody(body)
                .withIsBase64Encoded(false)
                .build();
    }

    /** A new user, a post by that user and a comment on it, inserted: three records of one shard, in order. */
    static List<DynamodbEvent.DynamodbStreamRecord> records(String kind, String run) {
        String userId = "user-cold-" + kind + "-" + run;
        User user = new User(userId, "Cold", "cold@example.com", AT, AT, 1);
        Post post = new Post("post-cold-" + run, userId, "Cold start", "The first batch of a new container.",
                PostStatus.CREATED, AT, AT, 1);
        Comment comment = new Comment("comment-cold-" + run, post.postId(), userId, AT, userId, "First!", AT);
        List<DynamodbEvent.DynamodbStreamRecord> records = new ArrayList<>();
        records.add(insert(kind, run, "100", user.key().toAttributeMap(), user.toItem()));
        records.add(insert(kind, run, "200", post.key().toAttributeMap(), post.toItem()));
        records.add(insert(kind, run, "300", comment.key().toAttributeMap(), comment.toItem()));
        return records;
    }

    private static String arn(String kind, String run) {
        return "arn:aws:dynamodb:us-east-1:000000000000:table/tally/stream/cold-" + kind + "-" + run;
    }

    private static DynamodbEvent.DynamodbStreamRecord insert(String kind, String run, String sequence,
                                                            Map<String, AttributeValue> keys,
                                                            Map<String, AttributeValue> item) {
        DynamodbEvent.DynamodbStreamRecord record = new DynamodbEvent.DynamodbStreamRecord();
        record.setEventID("cold-" + kind + "-" + run + "-" + sequence);
        record.setEventName("INSERT");
        record.setEventVersion("1.1");
        record.setEventSource("aws:dynamodb");
        record.setAwsRegion("us-east-1");
        record.setEventSourceARN(arn(kind, run));
        StreamRecord dynamodb = new StreamRecord();
        dynamodb.setKeys(SdkToLambdaRecords.item(keys));
        dynamodb.setNewImage(SdkToLambdaRecords.item(item));
        dynamodb.setSequenceNumber(sequence);
        dynamodb.setApproximateCreationDateTime(new Date());
        dynamodb.setSizeBytes(256L);
        dynamodb.setStreamViewType(StreamViewType.NEW_AND_OLD_IMAGES);
        record.setDynamodb(dynamodb);
        return record;
    }
}
