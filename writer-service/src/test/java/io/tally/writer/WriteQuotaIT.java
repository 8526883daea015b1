package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.tally.core.ShardSettings;
import io.tally.core.http.Authorization;
import io.tally.core.http.Caller;
import io.tally.core.quota.DynamoDbWriteQuota;
import io.tally.core.http.WriteQuota;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The per-caller write quota against DynamoDB Local, on a clock the test moves: a caller's burst, then its steady rate;
 * two writers (two containers) sharing one count; another caller and an admin with their own; and, through the real
 * handler, the 429 with {@code Retry-After}, nothing written past the quota, and reads not counted.
 */
class WriteQuotaIT {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    /** 2 a second (one every 500 ms), bursts of 4; admins 10 a second, bursts of 8. */
    private static final WriteQuota.Rates RATES = new WriteQuota.Rates(2, 4, 10, 8);
    private static final Caller ALICE = new Caller("alice", Set.of(), Set.of());
    private static final Caller BOB = new Caller("bob", Set.of(), Set.of());
    private static final Caller ADMIN = new Caller("ops", Set.of("admin"), Set.of());

    private final String table = LocalDynamoDb.createQuotaTable();
    private final MutableClock clock = new MutableClock(T0);

    private WriteQuota container() {
        return new DynamoDbWriteQuota(LocalDynamoDb.client(), table, RATES, clock);
    }

    @Test
    void aBurst_thenTheSteadyRate_countedAcrossContainers() {
        WriteQuota first = container();
        WriteQuota second = container();
        for (int i = 0; i < 4; i++) {
            assertThat((i % 2 == 0 ? first : second).admit(ALICE)).as("write %d of the burst", i + 1).isEmpty();
        }
        Optional<Duration> refused = second.admit(ALICE);
        assertThat(refused).as("the fifth at once, from the other container").isPresent();
        assertThat(refused.get()).isEqualTo(Duration.ofMillis(500));
        // Refused writes count nothing: after one interval exactly one more is admitted.
        clock.advance(Duration.ofMillis(499));
        assertThat(first.admit(ALICE)).isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(first.admit(ALICE)).isEmpty();
        assertThat(second.admit(ALICE)).isPresent();
        // Idle for a while: the whole burst again, no more.
        clock.advance(Duration.ofSeconds(10));
        for (int i = 0; i < 4; i++) {
            assertThat(first.admit(ALICE)).isEmpty();
        }
        assertThat(first.admit(ALICE)).isPresent();
    }

    @Test
    void anotherCaller_hasItsOwnCount_anAdminALargerOne_andNoCallerNone() {
        WriteQuota quota = container();
        for (int i = 0; i < 4; i++) {
            assertThat(quota.admit(ALICE)).isEmpty();
        }
        assertThat(quota.admit(ALICE)).isPresent();
        assertThat(quota.admit(BOB)).isEmpty();
        for (int i = 0; i < 8; i++) {
            assertThat(quota.admit(ADMIN)).as("admin write %d", i + 1).isEmpty();
        }
        assertThat(quota.admit(ADMIN)).isPresent();
        for (int i = 0; i < 20; i++) {
            assertThat(quota.admit(Caller.ANONYMOUS)).isEmpty();
        }
    }

    @Test
    void pastTheQuota_aWriteIs429WithRetryAfter_andWritesNothing_whileReadsGoOn() {
        String data = LocalDynamoDb.createTable("throttled");
        WriterApi api = new WriterApi(LocalDynamoDb.client(), data, Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET,
                ShardSettings.DEFAULTS, null, Authorization.required(true));
        api.writeQuota(container());
        WriterHandler handler = new WriterHandler(api);
        assertThat(call(handler, "POST", "/users", "{\"name\":\"Alice\",\"email\":\"a@example.com\"}").getStatusCode())
                .isEqualTo(201);
        for (int i = 1; i <= 3; i++) {
            assertThat(call(handler, "POST", "/users/alice/posts", "{\"postId\":\"p" + i + "\",\"title\":\"T\","
                    + "\"body\":\"B\"}").getStatusCode()).as("post %d", i).isEqualTo(201);
        }
        APIGatewayV2HTTPResponse refused = call(handler, "POST", "/users/alice/posts",
                "{\"postId\":\"p4\",\"title\":\"T\",\"body\":\"B\"}");
        assertThat(refused.getStatusCode()).isEqualTo(429);
        assertThat(refused.getBody()).contains("\"code\":\"too_many_requests\"");
        assertThat(refused.getHeaders()).containsEntry("Retry-After", "1");
        assertThat(call(handler, "GET", "/users/alice/posts/p4", null).getStatusCode()).isEqualTo(404);
        for (int i = 0; i < 10; i++) {
            assertThat(call(handler, "GET", "/users/alice/posts/p1", null).getStatusCode()).isEqualTo(200);
        }
        clock.advance(Duration.ofMillis(500));
        assertThat(call(handler, "POST", "/users/alice/posts", "{\"postId\":\"p4\",\"title\":\"T\",\"body\":\"B\"}")
                .getStatusCode()).isEqualTo(201);
    }

    /** A request with the claims of alice's access token, as API Gateway's JWT authorizer hands them over. */
    private static APIGatewayV2HTTPResponse call(WriterHandler handler, String method, String path, String body) {
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRouteKey("$default")
                .withRawPath(path).withRawQueryString("").withHeaders(Map.of("content-type", "application/json"))
                .withBody(body).withIsBase64Encoded(false)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder().withRouteKey("$default")
                        .withRequestId("quota").withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method).withPath(path).withProtocol("HTTP/1.1").withSourceIp("127.0.0.1")
                                .build())
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                                .withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                                        .withClaims(Map.of("sub", "alice", "token_use", "access")).build())
                                .build())
                        .build())
                .build();
        return handler.handleRequest(event, null);
    }
}
