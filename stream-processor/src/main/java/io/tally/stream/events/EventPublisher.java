package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import java.util.List;

/** Publishes domain events; a port with an EventBridge adapter. */
public interface EventPublisher {
    /**
     * Publishes the events, retrying what failed as far as sensible. The bus may accept them in any order (the
     * EventBridge adapter has several calls in flight at once); an event it accepted is not sent again.
     *
     * @return the events that could not be published, each with its error and whether another attempt may succeed,
     *         in their original order (empty when all were), which the engine walks in record order
     */
    List<Unpublished> tryPublish(List<DomainEvent> events);

    /**
     * Publishes the events, retrying what failed as far as sensible, as {@link #tryPublish}.
     *
     * @return the events that could not be published, in their original order (empty when all were)
     */
    default List<DomainEvent> publish(List<DomainEvent> events) {
        return tryPublish(events).stream().map(Unpublished::event).toList();
    }
}
