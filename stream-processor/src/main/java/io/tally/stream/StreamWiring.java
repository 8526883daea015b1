package io.tally.stream;

import io.micrometer.core.instrument.Metrics;
import io.tally.stream.derive.DerivationSettings;
import io.tally.stream.derive.Derivations;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.StreamMetrics;
import io.tally.stream.events.EventBridgePublisher;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/** The production engine of the stream handlers, configured from the environment of the function. */
final class StreamWiring {
    static final String TABLE_NAME = "TABLE_NAME";
    static final String AWS_REGION = "AWS_REGION";
    static final String DYNAMODB_ENDPOINT = "DYNAMODB_ENDPOINT";
    static final String EVENT_BUS_NAME = "EVENT_BUS_NAME";
    static final String EVENT_SOURCE = "EVENT_SOURCE";
    /** The application's one EventBridge source name, unless EVENT_SOURCE says otherwise. */
    static final String DEFAULT_EVENT_SOURCE = "io.tally";

    private StreamWiring() {
    }

    /**
     * Builds the clients once per container (cold start), with the URL connection HTTP client: it starts faster
     * and weighs less than the Apache or Netty clients, and a stream handler makes few, short calls.
     */
    static Engine fromEnvironment(Map<String, String> env) {
        String tableName = required(env, TABLE_NAME);
        Region region = Region.of(required(env, AWS_REGION));
        String eventBusName = required(env, EVENT_BUS_NAME);
        String source = env.getOrDefault(EVENT_SOURCE, DEFAULT_EVENT_SOURCE);

        DynamoDbClientBuilder dynamoDb = DynamoDbClient.builder()
                .region(region)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        String endpoint = env.get(DYNAMODB_ENDPOINT);
        if (endpoint != null && !endpoint.isBlank()) {
            dynamoDb.endpointOverride(URI.create(endpoint));
        }
        DynamoDbClient dynamoDbClient = dynamoDb.build();
        EventBridgeClient eventBridge = EventBridgeClient.builder()
                .region(region)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();

        return Engine.builder()
                .derivations(Derivations.standard(DerivationSettings.DEFAULTS))
                .store(new DynamoDbDerivedStore(dynamoDbClient, tableName))
                .deadLetters(new DynamoDbDeadLetterSink(dynamoDbClient, tableName))
                .publisher(new EventBridgePublisher(eventBridge, eventBusName, source))
                // The global registry, so that the metrics flusher of the function can add its registry to it.
                .metrics(new StreamMetrics(Metrics.globalRegistry))
                .build();
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }
}
