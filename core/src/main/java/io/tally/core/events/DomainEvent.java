package io.tally.core.events;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

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

    /**
     * The event of {@code type} about {@code subject} that stream record {@code eventId} announces: its id from those
     * three ({@link #idFor}), its detail a record of the type's detail class made with that id (which it carries as
     * {@code eventId}).
     */
    public static DomainEvent about(String eventId, EventType type, String subject,
                                    Function<String, ? extends Record> detail) {
        String id = idFor(eventId, type.detailType(), subject);
        Record record = detail.apply(id);
        if (!type.detail().isInstance(record)) {
            throw new IllegalArgumentException(type.detailType() + "'s detail is a " + type.detail().getName()
                    + ", not a " + record.getClass().getName());
        }
        return of(id, type.detailType(), record);
    }

    /** The id of the event of {@code detailType} about {@code subject} announced by stream record {@code eventId}. */
    public static String idFor(String eventId, String detailType, String subject) {
        return eventId + ":" + detailType + ":" + subject;
    }
}
