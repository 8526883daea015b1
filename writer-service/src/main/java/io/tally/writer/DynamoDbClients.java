package io.tally.writer;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** Builds the DynamoDB client of a container, once (also the benchmark's writer mode, to call as the writer does). */
public final class DynamoDbClients {
    /** Below API Gateway's 30 s integration timeout, so a slow call becomes our 503, not a gateway 504. */
    private static final Duration API_CALL_TIMEOUT = Duration.ofSeconds(10);

    private DynamoDbClients() {
    }

    public static DynamoDbClient create(WriterConfig config) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .region(Region.of(config.region()))
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(5))
                        .build())
                .overrideConfiguration(o -> o.apiCallTimeout(API_CALL_TIMEOUT));
        if (config.endpoint() != null) {
            builder.endpointOverride(config.endpoint());
            // DynamoDB Local accepts any credentials; don't make a local user configure some.
            if (System.getenv("AWS_ACCESS_KEY_ID") == null) {
                builder.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")));
            }
        } else {
            builder.credentialsProvider(DefaultCredentialsProvider.builder().build());
        }
        return builder.build();
    }
}
