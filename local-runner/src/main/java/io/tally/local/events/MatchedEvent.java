package io.tally.local.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * An event the bus accepted, with the names of the rules it matched (sorted; empty when it matched none).
 *
 * @param rules the matched rules' names
 * @param event the EventBridge envelope ({@code version}, {@code id}, {@code detail-type}, ... {@code detail}); the
 *              bus never changes it after matching, and neither may a target
 */
public record MatchedEvent(List<String> rules, ObjectNode event) {
    public MatchedEvent {
        rules = List.copyOf(rules);
        Objects.requireNonNull(event, "event");
    }

    /** The envelope's {@code id}: the EventId PutEvents answered with. */
    public String id() {
        return event.path("id").asText();
    }
}
