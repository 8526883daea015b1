package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The durable database is in place: with a data directory, DynamoDB Local's database is a
 * {@link DurableSQLiteDBAccess} (an upgrade of DynamoDB Local that changes the internals it is installed through fails
 * here, not silently on a user's machine), and transactions work through it, on the file DynamoDB Local itself would
 * open.
 */
class DynamoDbLocalServerIT {
    @TempDir
    Path dataDir;

    @Test
    void withADataDirectory_transactionsAreCommittedBeforeTheyAreAnswered() throws Exception {
        int port = Preflight.freePort(InetAddress.getByName("127.0.0.1"));
        try (DynamoDbLocalServer server = DynamoDbLocalServer.start("127.0.0.1", port, dataDir);
             DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
                     .region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            assertThat(server.durableTransactions()).isTrue();
            dynamo.createTable(t -> t.tableName("durable").billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
            for (int i = 0; i < 20; i++) {
                String pk = "k" + i;
                dynamo.transactWriteItems(r -> r.transactItems(
                        TransactWriteItem.builder().put(p -> p.tableName("durable")
                                .item(java.util.Map.of("pk", AttributeValue.fromS(pk)))).build(),
                        TransactWriteItem.builder().put(p -> p.tableName("durable")
                                .item(java.util.Map.of("pk", AttributeValue.fromS(pk + "-b")))).build()));
            }
            assertThat(dynamo.scan(s -> s.tableName("durable")).count()).isEqualTo(40);
        }
        assertThat(dataDir.resolve(DynamoDbLocalServer.SHARED_DB + ".db")).isNotEmptyFile();
    }

    @Test
    void inMemory_theDatabaseIsDynamoDbLocalsOwn() throws Exception {
        int port = Preflight.freePort(InetAddress.getByName("127.0.0.1"));
        try (DynamoDbLocalServer server = DynamoDbLocalServer.start("127.0.0.1", port, null)) {
            assertThat(server.durableTransactions()).isFalse();
        }
    }
}
