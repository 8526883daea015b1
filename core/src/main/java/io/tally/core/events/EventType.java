package io.tally.core.events;

import java.util.Objects;

/**
 * A kind of domain event a domain announces: its EventBridge detail type and the record its detail is written from
 * (fields in the record's {@code @JsonPropertyOrder}), as {@code docs/events.md} documents it.
 *
 * @param publicData whether the event is about public data only (posts and comments as {@code /posts} shows them, the
 *                   catalogue, songs): what an anonymous reader of a public feed may see
 */
public record EventType(String detailType, Class<? extends Record> detail, boolean publicData) {
    public EventType {
        Objects.requireNonNull(detailType, "detailType");
        Objects.requireNonNull(detail, "detail");
    }

    /** An event about one user's own data or an organisation's: not for a public feed. */
    public static EventType of(String detailType, Class<? extends Record> detail) {
        return new EventType(detailType, detail, false);
    }

    /** An event about public data. */
    public static EventType publicEvent(String detailType, Class<? extends Record> detail) {
        return new EventType(detailType, detail, true);
    }
}
