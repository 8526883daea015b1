package io.tally.local.maintenance;

import java.net.URI;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * Where the maintenance commands find the table: the local runner's DynamoDB Local by default, a deployed table
 * with {@code --aws} (the default AWS credential chain and region settings, or {@code --region}).
 */
public final class TableConnection {
    static final String LOCAL_ENDPOINT = "http://127.0.0.1:8000";

    @Option(names = "--table-name", paramLabel = "NAME", defaultValue = "tally",
            description = "the table (default: ${DEFAULT-VALUE}; a deployed stack's is its TableName output)")
    String tableName;

    @Option(names = "--endpoint", paramLabel = "URL",
            description = "DynamoDB endpoint (default: " + LOCAL_ENDPOINT + ", a running tally-local; ignored "
                    + "with --aws)")
    URI endpoint;

    @Option(names = "--aws", description = "the table on AWS, with the default credential chain "
            + "(AWS_PROFILE, environment, SSO, ...)")
    boolean aws;

    @Option(names = "--region", paramLabel = "REGION",
            description = "AWS region (default with --aws: from the environment or profile; locally: us-east-1)")
    String region;

    /** The table's DynamoDB client and its stream's client, closed together. */
    record Clients(DynamoDbClient dynamo, DynamoDbStreamsClient streams) implements AutoCloseable {
        @Override
        public void close() {
            try (streams) {
                dynamo.close();
            }
        }
    }

    Clients clients() {
        return new Clients(dynamoDb(), streams());
    }

    /**
     * An EventBridge client with the same settings: on AWS the default chain and region, locally the event bus at
     * {@code localEndpoint}, signing with {@code busCredentials} (those of a runner started with {@code --auth}, whose
     * bus takes no other caller) or, when null, with any (a bus without {@code --auth} checks none).
     */
    EventBridgeClient eventBridge(URI localEndpoint, AwsBasicCredentials busCredentials) {
        var builder = EventBridgeClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder());
        configure(builder, localEndpoint);
        if (!aws && busCredentials != null) {
            builder.credentialsProvider(StaticCredentialsProvider.create(busCredentials));
        }
        return builder.build();
    }

    private DynamoDbClient dynamoDb() {
        var builder = DynamoDbClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder());
        configure(builder, endpoint != null ? endpoint : URI.create(LOCAL_ENDPOINT));
        return builder.build();
    }

    private DynamoDbStreamsClient streams() {
        var builder = DynamoDbStreamsClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder());
        configure(builder, endpoint != null ? endpoint : URI.create(LOCAL_ENDPOINT));
        return builder.build();
    }

    private void configure(software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<?, ?> builder,
                           URI localEndpoint) {
        if (aws) {
            builder.credentialsProvider(DefaultCredentialsProvider.builder().build());
            if (region != null) {
                builder.region(Region.of(region));
            }
            return;
        }
        builder.endpointOverride(localEndpoint);
        builder.region(Region.of(region != null ? region : "us-east-1"));
        builder.credentialsProvider(localCredentials());
    }

    /** DynamoDB Local accepts any credentials whose key id is letters and digits. */
    private static AwsCredentialsProvider localCredentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
    }

    String describe() {
        return "table " + tableName + (aws ? " on AWS" + (region != null ? " (" + region + ")" : "")
                : " at " + (endpoint != null ? endpoint : LOCAL_ENDPOINT));
    }
}
