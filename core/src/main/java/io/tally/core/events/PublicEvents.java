package io.tally.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Json;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a public feed of events may show an anonymous reader (DOMAIN.md, access control: public answers hold public data
 * only): the events the domains declare public ({@link EventType#publicData}), each with its detail cut down to
 * {@link EventType#publicFields}. An allow-list: an event no domain declares (another source's, a domain's that is not
 * loaded, {@code UserStatsChanged}) is not public.
 */
public final class PublicEvents {
    private final Map<String, EventType> byDetailType;

    private PublicEvents(Collection<EventType> types) {
        Map<String, EventType> map = new LinkedHashMap<>();
        for (EventType type : types) {
            if (type.publicData()) {
                map.put(type.detailType(), type);
            }
        }
        this.byDetailType = Map.copyOf(map);
    }

    /** The public ones of these kinds (a registry's: {@code DomainRegistry.events()}). */
    public static PublicEvents of(Collection<EventType> types) {
        return new PublicEvents(types);
    }

    /** The detail types a public feed shows. */
    public Set<String> detailTypes() {
        return byDetailType.keySet();
    }

    public boolean isPublic(String detailType) {
        return detailType != null && byDetailType.containsKey(detailType);
    }

    /**
     * The detail an anonymous reader may see of an event of {@code detailType}: a copy holding only the type's public
     * fields (in the detail's order); empty when the type is not public or the detail is not an object.
     */
    public Optional<ObjectNode> publicDetail(String detailType, JsonNode detail) {
        EventType type = detailType == null ? null : byDetailType.get(detailType);
        if (type == null || detail == null || !detail.isObject()) {
            return Optional.empty();
        }
        Set<String> shown = Set.copyOf(type.publicFields());
        ObjectNode copy = Json.object();
        detail.fields().forEachRemaining(field -> {
            if (shown.contains(field.getKey())) {
                copy.set(field.getKey(), field.getValue().deepCopy());
            }
        });
        return Optional.of(copy);
    }
}
