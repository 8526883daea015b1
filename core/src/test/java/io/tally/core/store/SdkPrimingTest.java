package io.tally.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndexes;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * The SnapStart priming read: answered by a real table (DynamoDB Local) without writing anything, and a failure (no
 * endpoint) is a {@code false}, never an exception that would fail publishing a version.
 */
class SdkPrimingTest {
    @Test
    void readNothing_isAnsweredByTheTable_andLeavesItAsItWas() {
        AmazonDynamoDBLocal local = DynamoDBEmbedded.create(true);
        try {
            DynamoDbClient dynamo = local.dynamoDbClient();
            dynamo.createTable(TableIndexes.createTableRequest(DomainRegistry.of(), "primed"));
            dynamo.putItem(b -> b.tableName("primed").item(Map.of(TableSchema.PK, AttributeValue.fromS("USER#u1"),
                    TableSchema.SK, AttributeValue.fromS("#METADATA#"))));

            assertThat(SdkPriming.readNothing(dynamo, "primed")).isTrue();
            assertThat(SdkPriming.readNothing(dynamo, "primed")).isTrue();
            assertThat(dynamo.scan(ScanRequest.builder().tableName("primed").build()).items()).singleElement()
                    .satisfies(item -> assertThat(item.get(TableSchema.PK).s()).isEqualTo("USER#u1"));
            // A table that is not there yet: the read is refused, and priming goes on.
            assertThat(SdkPriming.readNothing(dynamo, "not-created")).isFalse();
        } finally {
            local.shutdown();
        }
    }

    @Test
    void readNothing_withoutAnEndpoint_isFalse() {
        try (DynamoDbClient unreachable = DynamoDbClient.builder().region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(5)).retryStrategy(r -> r.maxAttempts(1)))
                .build()) {
            assertThat(SdkPriming.readNothing(unreachable, "t")).isFalse();
        }
    }
}
