package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import java.util.List;

/** Publishes domain events; a port with an EventBridge adapter. */
public interface EventPublisher {
    /**
     * Publishes the events in order, retrying what failed as far as sensible.
     *
     * @return the events that could not be published, each with its error and whether another attempt may succeed,
     *         in their original order (empty when all were)
     */
    List<Unpublished> tryPublish(List<DomainEvent> events);

    /**
     * Publishes the events in order, retrying what failed as far as sensible.
     *
     * @return the events that could not be published, in their original order (empty when all were)
     */
    default List<DomainEvent> publish(List<DomainEvent> events) {
        return tryPublish(events).stream().map(Unpublished::event).toList();
    }
}
