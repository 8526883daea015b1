package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tally.testkit.UnreachableDynamoDb;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The SnapStart priming serves its synthetic requests without a single DynamoDB call. */
class PrimingTest {
    /** Every DynamoDB operation the client was asked for; it sends none of them. */
    private final List<String> calls = new CopyOnWriteArrayList<>();

    private WriterHandler handlerRefusingDynamoDb() {
        DynamoDbClient client = UnreachableDynamoDb.client(request -> {
            calls.add(request.getClass().getSimpleName());
            throw new AssertionError("priming called DynamoDB: " + request);
        });
        return new WriterHandler(new WriterApi(client, "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET));
    }

    @Test
    void prime_answersEveryRequestWithAClientErrorAndNeverCallsDynamoDb() {
        List<Integer> statuses = new Priming(handlerRefusingDynamoDb()).prime();

        assertThat(statuses).hasSize(4).allSatisfy(status -> assertThat(status).isBetween(400, 499));
        assertThat(statuses.get(0)).isEqualTo(400);
        assertThat(statuses.get(3)).isEqualTo(404);
        assertThat(calls).isEmpty();
    }

    @Test
    void beforeCheckpoint_primesWithoutThrowing_andRegistersOnAJvmWithoutCrac() throws Exception {
        // The requests call nothing; then the client reads a key no item has, which fails here (nothing listens).
        List<software.amazon.awssdk.core.SdkRequest> sent = new CopyOnWriteArrayList<>();
        DynamoDbClient client = UnreachableDynamoDb.client(request -> {
            sent.add(request);
            throw software.amazon.awssdk.core.exception.SdkClientException.create("unreachable");
        });
        WriterHandler handler = new WriterHandler(new WriterApi(client, "tally", Clock.systemUTC(),
                WriterConfig.DEVELOPMENT_SECRET));
        java.util.concurrent.atomic.AtomicInteger restored = new java.util.concurrent.atomic.AtomicInteger();
        Priming priming = Priming.register(handler, restored::incrementAndGet);

        assertThatCode(() -> priming.beforeCheckpoint(null)).doesNotThrowAnyException();
        assertThat(sent).singleElement().isInstanceOfSatisfying(
                software.amazon.awssdk.services.dynamodb.model.GetItemRequest.class, read -> {
                    assertThat(read.tableName()).isEqualTo("tally");
                    assertThat(read.key()).isEqualTo(io.tally.core.store.SdkPriming.NOTHING.toAttributeMap());
                });
        assertThat(restored).hasValue(0);
        priming.afterRestore(null);
        assertThat(restored).hasValue(1);
    }
}
