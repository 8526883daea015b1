package io.tally.stream.events;

import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * PLACEHOLDER so that the production wiring compiles: the EventBridge adapter is written in its own branch and
 * replaces this class (same constructor). Until then every publish fails, so a deployment built from this
 * class alone would hold its shards at the first record with events.
 */
public final class EventBridgePublisher implements EventPublisher {
    private final EventBridgeClient client;
    private final String eventBusName;
    private final String source;

    public EventBridgePublisher(EventBridgeClient client, String eventBusName, String source) {
        this.client = Objects.requireNonNull(client, "client");
        this.eventBusName = Objects.requireNonNull(eventBusName, "eventBusName");
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public List<DomainEvent> publish(List<DomainEvent> events) {
        throw new UnsupportedOperationException("EventBridgePublisher is a placeholder (bus " + eventBusName
                + ", source " + source + ", client " + client.serviceName() + ")");
    }
}
