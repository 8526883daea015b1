package io.tally.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local's HTTP server in this JVM ({@code -inMemory -sharedDb}: one database whatever the client's
 * credentials and region), for tests and the benchmark that need real SDK clients: the embedded {@link LocalDynamoDb}
 * clients are proxies that never run the SDK's request pipeline, so an {@link ExecutionInterceptor} on them would see
 * nothing (no request counting), and no HTTP costs would be in the benchmark's figures.
 */
public final class LocalDynamoDbServer implements AutoCloseable {
    private static final int START_ATTEMPTS = 3;

    private final DynamoDBProxyServer server;
    private final URI endpoint;

    private LocalDynamoDbServer(DynamoDBProxyServer server, int port) {
        this.server = server;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Starts a server on a free port. The port is found free and then bound: another process (a parallel test JVM)
     * may take it in between, so a failed start is tried again on another port, a few times.
     */
    public static LocalDynamoDbServer start() {
        IllegalStateException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int port = freePort();
            try {
                return start(port);
            } catch (IllegalStateException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    private static LocalDynamoDbServer start(int port) {
        try {
            // As ServerRunner.createServerFromCommandLineArgs, without the configuration banner on stdout.
            CommandLineInput input = new CommandLineInput(
                    new String[] {"-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(port)});
            if (!input.init()) {
                throw new IllegalStateException("DynamoDB Local refused its arguments");
            }
            DynamoDBProxyServer server = ServerRunner.createServer(input);
            server.safeStart();
            return new LocalDynamoDbServer(server, port);
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local server did not start on port " + port, e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient client(ExecutionInterceptor... interceptors) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(config -> {
                    for (ExecutionInterceptor interceptor : interceptors) {
                        config.addExecutionInterceptor(interceptor);
                    }
                })
                .build();
    }

    public DynamoDbStreamsClient streamsClient() {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local server did not stop", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
