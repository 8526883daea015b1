package io.tally.core.events;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A kind of domain event a domain announces: its EventBridge detail type and the record its detail is written from
 * (fields in the record's {@code @JsonPropertyOrder}), as {@code docs/events.md} documents it.
 *
 * @param publicData whether the event is about public data only (posts and comments as {@code /posts} shows them, the
 *                   catalogue, songs): what an anonymous reader of a public feed may see
 * @param withheld   the detail's fields a public feed leaves out of a public event, because no public route shows
 *                   them (a comment's {@code authorId}: {@code /posts} shows how many comments a post has, not who
 *                   wrote them); empty for an event that is not public, which a public feed shows not at all
 */
public record EventType(String detailType, Class<? extends Record> detail, boolean publicData, Set<String> withheld) {
    public EventType {
        Objects.requireNonNull(detailType, "detailType");
        Objects.requireNonNull(detail, "detail");
        withheld = Set.copyOf(withheld);
        if (!publicData && !withheld.isEmpty()) {
            throw new IllegalArgumentException(detailType + " is not public: a public feed shows none of its fields");
        }
        List<String> fields = components(detail);
        for (String field : withheld) {
            if (!fields.contains(field)) {
                throw new IllegalArgumentException(detailType + "'s detail has no field '" + field + "'");
            }
        }
        if (withheld.contains("eventId")) {
            throw new IllegalArgumentException(detailType + ": a public feed keeps the eventId");
        }
    }

    /** An event about one user's own data or an organisation's: not for a public feed. */
    public static EventType of(String detailType, Class<? extends Record> detail) {
        return new EventType(detailType, detail, false, Set.of());
    }

    /** An event about public data; a public feed shows its detail but the {@code withheld} fields. */
    public static EventType publicEvent(String detailType, Class<? extends Record> detail, String... withheld) {
        return new EventType(detailType, detail, true, Set.of(withheld));
    }

    /** The fields a public feed shows of this event, in the detail's order; none when it is not public. */
    public List<String> publicFields() {
        if (!publicData) {
            return List.of();
        }
        return components(detail).stream().filter(field -> !withheld.contains(field)).toList();
    }

    private static List<String> components(Class<? extends Record> detail) {
        return Arrays.stream(detail.getRecordComponents()).map(RecordComponent::getName).toList();
    }
}
