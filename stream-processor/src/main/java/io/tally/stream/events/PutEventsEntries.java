package io.tally.stream.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.events.DomainEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/**
 * PutEvents entries: one per event, as {@link EventBridgePublisher} sends them, their size as EventBridge counts it,
 * and their split into calls within both of PutEvents' limits.
 */
public final class PutEventsEntries {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PutEventsEntries() {
    }

    /**
     * The entry for one event. The detail is the event's detail with {@code eventId} in front: EventBridge assigns
     * its own envelope id on every put, so subscribers can only recognise a redelivered event by this one.
     * Public for the SnapStart priming, which builds entries without sending them.
     *
     * @throws IllegalArgumentException when the detail cannot be written as JSON
     */
    public static PutEventsRequestEntry entry(DomainEvent event, String eventBusName, String source) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", event.id());
        event.detail().forEach(detail::putIfAbsent);
        try {
            return PutEventsRequestEntry.builder()
                    .eventBusName(eventBusName)
                    .source(source)
                    .detailType(event.detailType())
                    .detail(JSON.writeValueAsString(detail))
                    .build();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Detail of event " + event.id() + " is not JSON-compatible", e);
        }
    }

    /** The size EventBridge counts against its limit: Source, DetailType, Detail, Resources and 14 for Time. */
    static int entrySize(PutEventsRequestEntry entry) {
        int size = entry.time() == null ? 0 : 14;
        size += utf8Length(entry.source()) + utf8Length(entry.detailType()) + utf8Length(entry.detail());
        for (String resource : entry.resources()) {
            size += utf8Length(resource);
        }
        return size;
    }

    /**
     * Splits positions, in order, into calls within both PutEvents limits; every position's entry must fit a call
     * on its own.
     */
    static List<List<Integer>> calls(List<Integer> positions, List<PutEventsRequestEntry> entries) {
        List<List<Integer>> calls = new ArrayList<>();
        List<Integer> call = new ArrayList<>();
        int bytes = 0;
        for (int position : positions) {
            int size = entrySize(entries.get(position));
            if (call.size() == EventBridgePublisher.MAX_ENTRIES_PER_CALL || bytes + size > EventBridgePublisher.MAX_CALL_BYTES) {
                calls.add(call);
                call = new ArrayList<>();
                bytes = 0;
            }
            call.add(position);
            bytes += size;
        }
        if (!call.isEmpty()) {
            calls.add(call);
        }
        return calls;
    }

    private static int utf8Length(String value) {
        return value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
    }
}
