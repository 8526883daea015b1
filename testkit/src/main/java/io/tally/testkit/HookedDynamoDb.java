package io.tally.testkit;

import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB Local's HTTP server with the three clients a test of failures needs: a plain one for the test's own reads and
 * writes, a streams client, and one whose requests pass the test's interceptors (its hooks), for the code under test.
 * Closing it closes the clients and stops the server.
 */
public final class HookedDynamoDb implements AutoCloseable {
    private final LocalDynamoDbServer server;
    private final DynamoDbClient plain;
    private final DynamoDbStreamsClient streams;
    private final DynamoDbClient hooked;

    private HookedDynamoDb(LocalDynamoDbServer server, ExecutionInterceptor... hooks) {
        this.server = server;
        this.plain = server.client();
        this.streams = server.streamsClient();
        this.hooked = server.client(hooks);
    }

    /** Starts a server; the hooked client's requests pass {@code hooks}. */
    public static HookedDynamoDb start(ExecutionInterceptor... hooks) {
        return new HookedDynamoDb(LocalDynamoDbServer.start(), hooks);
    }

    /** A client whose requests pass no hook. */
    public DynamoDbClient plain() {
        return plain;
    }

    public DynamoDbStreamsClient streams() {
        return streams;
    }

    /** A client whose requests pass the hooks. */
    public DynamoDbClient hooked() {
        return hooked;
    }

    @Override
    public void close() {
        hooked.close();
        streams.close();
        plain.close();
        server.close();
    }
}
