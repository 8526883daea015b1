package io.tally.local.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.local.lambda.LocalLambdaContext;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * EventBridge's {@code PutEvents} on a request body: validates it as the service does and turns every valid entry
 * into the event EventBridge would route. Pure: no I/O, the clock and the ids are given.
 *
 * <p>Two kinds of failure, as on AWS. A request that breaks the operation's contract (no entries, more than ten,
 * entries over the size limit together, a body that is not the operation's JSON) fails as a whole with a
 * {@link Rejected}, and nothing is accepted. An entry that is wrong on its own fails alone, with an
 * {@code ErrorCode} in its place of the answer, while the other entries of the call are accepted.
 */
final class PutEvents {
    /** The value of {@code X-Amz-Target} that names the operation. */
    static final String TARGET = "AWSEvents.PutEvents";
    /** Entries per call, from the service's model. */
    static final int MAX_ENTRIES = 10;
    /**
     * The limit on the entries of one call, counted as EventBridge counts them ({@link #entrySize}). AWS documents
     * it as 256 KB per PutEvents event entry, and enforces it on the sum over the call.
     */
    static final int MAX_ENTRIES_BYTES = 256 * 1024;
    /** What EventBridge counts for an entry's {@code Time}, whatever its value. */
    private static final int TIME_BYTES = 14;
    /** EventBridge's events carry whole seconds. */
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ISO_INSTANT;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final JsonNodeFactory NODES = JSON.getNodeFactory();

    /** The answer to a PutEvents call. */
    sealed interface Result permits Accepted, Rejected {
    }

    /**
     * The call was processed: one result per entry, in the order of the entries, and the events of the accepted
     * ones in the same order.
     */
    record Accepted(List<EntryResult> entries, List<ObjectNode> events) implements Result {
        Accepted {
            entries = List.copyOf(entries);
            events = List.copyOf(events);
        }

        int failedEntryCount() {
            return (int) entries.stream().filter(entry -> entry.errorCode() != null).count();
        }

        /** {@code {"FailedEntryCount": n, "Entries": [{"EventId"} | {"ErrorCode", "ErrorMessage"}, ...]}} */
        ObjectNode body() {
            ObjectNode body = NODES.objectNode();
            body.put("FailedEntryCount", failedEntryCount());
            ArrayNode results = body.putArray("Entries");
            for (EntryResult entry : entries) {
                ObjectNode result = results.addObject();
                if (entry.errorCode() == null) {
                    result.put("EventId", entry.eventId());
                } else {
                    result.put("ErrorCode", entry.errorCode());
                    result.put("ErrorMessage", entry.errorMessage());
                }
            }
            return body;
        }
    }

    /** The call failed as a whole: the service's error {@code __type} and message, with HTTP status 400. */
    record Rejected(String type, String message) implements Result {
        static final String VALIDATION = "ValidationException";
        static final String SERIALIZATION = "SerializationException";

        /** The AWS JSON protocol's error body, {@code {"__type": ..., "message": ...}}. */
        ObjectNode body() {
            return errorBody(type, message);
        }
    }

    /** One entry's outcome: an event id, or an error code and message. */
    record EntryResult(String eventId, String errorCode, String errorMessage) {
        static EntryResult accepted(String eventId) {
            return new EntryResult(Objects.requireNonNull(eventId), null, null);
        }

        static EntryResult failed(String code, String message) {
            return new EntryResult(null, Objects.requireNonNull(code), Objects.requireNonNull(message));
        }
    }

    private final String busName;
    private final Clock clock;
    private final Supplier<UUID> ids;

    /**
     * @param busName the bus this endpoint stands for; entries may also name {@code default}, as the default bus
     *                is where PutEvents sends entries that name none
     */
    PutEvents(String busName, Clock clock, Supplier<UUID> ids) {
        this.busName = Objects.requireNonNull(busName, "busName");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /** The AWS JSON protocol's error body. */
    static ObjectNode errorBody(String type, String message) {
        ObjectNode body = NODES.objectNode();
        body.put("__type", type);
        body.put("message", message);
        return body;
    }

    /** Processes one request body. */
    Result execute(byte[] body) {
        JsonNode request;
        try {
            // An empty body is an empty request, as the SDKs send for an operation without input.
            request = body.length == 0 ? NODES.objectNode() : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return new Rejected(Rejected.SERIALIZATION, "the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Rejected(Rejected.SERIALIZATION, "the request body is unreadable: " + e.getMessage());
        }
        if (request == null || !request.isObject()) {
            return new Rejected(Rejected.SERIALIZATION, "the request body must be a JSON object");
        }
        JsonNode entries = request.get("Entries");
        if (entries == null || entries.isNull()) {
            return new Rejected(Rejected.VALIDATION, "1 validation error detected: Value null at 'entries' failed to "
                    + "satisfy constraint: Member must not be null");
        }
        if (!entries.isArray()) {
            return new Rejected(Rejected.SERIALIZATION, "Entries must be a list");
        }
        if (entries.isEmpty()) {
            return new Rejected(Rejected.VALIDATION, "1 validation error detected: Value '[]' at 'entries' failed to "
                    + "satisfy constraint: Member must have length greater than or equal to 1");
        }
        if (entries.size() > MAX_ENTRIES) {
            return new Rejected(Rejected.VALIDATION, "1 validation error detected: Value '[PutEventsRequestEntry]' at "
                    + "'entries' failed to satisfy constraint: Member must have length less than or equal to "
                    + MAX_ENTRIES);
        }
        List<Entry> parsed = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            try {
                parsed.add(Entry.of(entries.get(i)));
            } catch (IllegalArgumentException e) {
                return new Rejected(Rejected.SERIALIZATION, "Entries[" + i + "]: " + e.getMessage());
            }
        }
        long size = parsed.stream().mapToLong(PutEvents::entrySize).sum();
        if (size > MAX_ENTRIES_BYTES) {
            return new Rejected(Rejected.VALIDATION, "Total size of the entries in the request is over the limit.");
        }

        List<EntryResult> results = new ArrayList<>();
        List<ObjectNode> events = new ArrayList<>();
        for (Entry entry : parsed) {
            EntryResult failure = validate(entry);
            ObjectNode detail = failure == null ? detail(entry.detail()) : null;
            if (failure == null && detail == null) {
                failure = EntryResult.failed("MalformedDetail", "Detail is malformed.");
            }
            if (failure != null) {
                results.add(failure);
                continue;
            }
            String id = ids.get().toString();
            events.add(envelope(id, entry, detail));
            results.add(EntryResult.accepted(id));
        }
        return new Accepted(results, events);
    }

    /** An entry's size as EventBridge counts it (its user guide, "Calculating PutEvents event entry size"). */
    static long entrySize(Entry entry) {
        long size = entry.time() == null ? 0 : TIME_BYTES;
        size += utf8Length(entry.source());
        size += utf8Length(entry.detailType());
        size += utf8Length(entry.detail());
        for (String resource : entry.resources()) {
            size += utf8Length(resource);
        }
        return size;
    }

    /** The entry's own error, in the service's words, or null when it names a bus and has every member. */
    private EntryResult validate(Entry entry) {
        if (entry.eventBusName() != null && !acceptsBus(entry.eventBusName())) {
            // The service has been seen to accept events for a bus that does not exist and drop them; here they
            // fail, so that a publisher configured with the wrong bus finds out on its first call.
            return EntryResult.failed("InvalidArgument", "Event bus " + entry.eventBusName() + " does not exist.");
        }
        if (isBlank(entry.source())) {
            return required("Source");
        }
        if (isBlank(entry.detailType())) {
            return required("DetailType");
        }
        if (isBlank(entry.detail())) {
            return required("Detail");
        }
        return null;
    }

    private static EntryResult required(String parameter) {
        return EntryResult.failed("InvalidArgument",
                "Parameter " + parameter + " is not valid. Reason: " + parameter + " is a required argument.");
    }

    /** The bus's name, {@code default}, or the ARN of either (publishers configured from a template often hold the ARN). */
    private boolean acceptsBus(String name) {
        String bus = name;
        int slash = name.lastIndexOf(":event-bus/");
        if (name.startsWith("arn:") && slash >= 0) {
            bus = name.substring(slash + ":event-bus/".length());
        }
        return bus.equals(busName) || bus.equals("default");
    }

    /** The detail as a JSON object, or null if it is anything else (EventBridge takes objects only). */
    private static ObjectNode detail(String text) {
        try {
            JsonNode detail = JSON.readTree(text);
            return detail instanceof ObjectNode object ? object : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private ObjectNode envelope(String id, Entry entry, ObjectNode detail) {
        Instant time = entry.time() == null ? clock.instant() : entry.time();
        ObjectNode event = NODES.objectNode();
        event.put("version", "0");
        event.put("id", id);
        event.put("detail-type", entry.detailType());
        event.put("source", entry.source());
        event.put("account", LocalLambdaContext.ACCOUNT_ID);
        event.put("time", EVENT_TIME.format(time.truncatedTo(ChronoUnit.SECONDS)));
        event.put("region", LocalLambdaContext.REGION);
        ArrayNode resources = event.putArray("resources");
        entry.resources().forEach(resources::add);
        event.set("detail", detail);
        return event;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isEmpty();
    }

    private static long utf8Length(String value) {
        return value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * A {@code PutEventsRequestEntry} as sent: any member may be missing (null), which is the entry's own error,
     * not the request's.
     */
    record Entry(String source, String detailType, String detail, String eventBusName, List<String> resources,
            Instant time) {
        Entry {
            resources = List.copyOf(resources);
        }

        /**
         * Reads one element of {@code Entries}.
         *
         * @throws IllegalArgumentException if it is not the operation's JSON (a member of the wrong type): the
         *                                  service cannot even read such a request
         */
        static Entry of(JsonNode node) {
            if (!node.isObject()) {
                throw new IllegalArgumentException("an entry must be an object");
            }
            List<String> resources = new ArrayList<>();
            JsonNode list = node.get("Resources");
            if (list != null && !list.isNull()) {
                if (!list.isArray()) {
                    throw new IllegalArgumentException("Resources must be a list of strings");
                }
                for (JsonNode resource : list) {
                    if (!resource.isTextual()) {
                        throw new IllegalArgumentException("Resources must be a list of strings");
                    }
                    resources.add(resource.asText());
                }
            }
            return new Entry(text(node, "Source"), text(node, "DetailType"), text(node, "Detail"),
                    text(node, "EventBusName"), resources, time(node.get("Time")));
        }

        private static String text(JsonNode entry, String member) {
            JsonNode value = entry.get(member);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isTextual()) {
                throw new IllegalArgumentException(member + " must be a string");
            }
            return value.asText();
        }

        /** The SDKs send epoch seconds, with a fraction for milliseconds; an ISO-8601 string is read as well. */
        private static Instant time(JsonNode value) {
            if (value == null || value.isNull()) {
                return null;
            }
            try {
                if (value.isNumber()) {
                    BigDecimal seconds = value.decimalValue();
                    long whole = seconds.longValue();
                    long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
                    return Instant.ofEpochSecond(whole, nanos);
                }
                if (value.isTextual()) {
                    return Instant.parse(value.asText());
                }
            } catch (DateTimeException | ArithmeticException e) {
                throw new IllegalArgumentException("Time is not a timestamp: " + value);
            }
            throw new IllegalArgumentException("Time must be a timestamp in epoch seconds");
        }
    }
}
