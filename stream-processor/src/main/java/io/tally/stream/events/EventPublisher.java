package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import java.util.List;

/** Publishes domain events; a port with an EventBridge adapter. */
public interface EventPublisher {
    /**
     * Publishes the events in order, retrying what failed as far as sensible.
     *
     * @return the events that could not be published, in their original order (empty when all were)
     */
    List<DomainEvent> publish(List<DomainEvent> events);
}
