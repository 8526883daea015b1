package io.tally.testkit;

import java.net.URI;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A real SDK client whose every call is handed to a test before anything is sent (to an endpoint nothing listens
 * on): the test records it, or throws the failure the caller is to see.
 */
public final class UnreachableDynamoDb {
    private UnreachableDynamoDb() {
    }

    public static DynamoDbClient client(Consumer<SdkRequest> beforeEachCall) {
        return DynamoDbClient.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                        beforeEachCall.accept(context.request());
                    }
                }))
                .build();
    }
}
