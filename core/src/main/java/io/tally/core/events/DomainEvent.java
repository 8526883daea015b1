package io.tally.core.events;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A domain event for EventBridge. {@code id} is derived from the stream record (and the event's subject), so a
 * redelivered record produces the same id and subscribers can drop duplicates; it travels in the detail as
 * {@code eventId}, because EventBridge assigns its own envelope id.
 *
 * @param detail JSON-compatible values (String, Number, Boolean, null, Map, List), in the documented order
 */
public record DomainEvent(String id, String detailType, Map<String, Object> detail) {
    public DomainEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(detailType, "detailType");
        detail = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(detail));
    }

    /**
     * The event whose detail is a record (fields in its {@code @JsonPropertyOrder}, timestamps in the contract's
     * format), its {@code eventId} among them.
     */
    public static DomainEvent of(String id, String detailType, Record detail) {
        return new DomainEvent(id, detailType, io.tally.core.http.Json.fields(detail));
    }

    /** The id of the event of {@code detailType} about {@code subject} announced by stream record {@code eventId}. */
    public static String idFor(String eventId, String detailType, String subject) {
        return eventId + ":" + detailType + ":" + subject;
    }
}
