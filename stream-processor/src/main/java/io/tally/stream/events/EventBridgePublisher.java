package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Publishes domain events with EventBridge PutEvents, retrying only what failed.
 *
 * <p>Each round sends every pending event in calls of at most {@value #MAX_ENTRIES_PER_CALL} entries and
 * {@value #MAX_CALL_BYTES} bytes; what the next round resends is exactly the entries EventBridge rejected with a
 * retryable code and the calls that failed retryably, so an accepted event is never sent again. The SDK client
 * retries a failed call on its own first; these rounds add backoff across calls and the per-entry retries the
 * SDK cannot do. What is not published comes back with its error code and whether it was refused for good (a
 * non-retryable entry code, a call refused with a client error such as {@code AccessDeniedException} or
 * {@code ResourceNotFoundException}, an entry that cannot be sent) or only ran out of attempts.
 */
public final class EventBridgePublisher implements EventPublisher {
    static final int MAX_ENTRIES_PER_CALL = 10;
    static final int MAX_CALL_BYTES = 256 * 1024;

    /** The error code of an entry whose result is missing from PutEvents' answer. */
    static final String NO_RESULT = "NoResult";
    /** The error code of an event whose entry exceeds {@value #MAX_CALL_BYTES} bytes: never sent. */
    public static final String ENTRY_TOO_LARGE = "EntryTooLarge";
    /** The error code of an event whose detail cannot be written as JSON: never sent. */
    public static final String DETAIL_NOT_JSON = "DetailNotJson";

    private static final Logger LOG = LoggerFactory.getLogger(EventBridgePublisher.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The entry error codes EventBridge documents as retryable (throttling, its internal failures), and the missing
     * result of an entry, which may not have been accepted. Any other code (those it documents as non-retryable:
     * {@code AccessDeniedException}, {@code InvalidArgument}, {@code MalformedDetail}, {@code NotAuthorizedFor...},
     * and codes it may add) is a refusal another attempt would meet again: the engine files such an event as a dead
     * letter at once rather than hold its shard.
     */
    /**
     * Call error codes that clear by themselves though EventBridge answers them with a 4xx: credentials that expired
     * (the function's role's session is renewed) and a request signed too long ago.
     */
    private static final Set<String> RETRYABLE_CALL_ERRORS = Set.of("ExpiredTokenException", "RequestExpired",
            "RequestTimeout", "RequestTimeoutException");
    private static final Set<String> RETRYABLE_ENTRY_ERRORS = Set.of("ThrottlingException", "InternalFailure",
            "InternalException", "ServiceUnavailable", NO_RESULT);

    private final EventBridgeClient client;
    private final String eventBusName;
    private final String source;
    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration maxDelay;

    public EventBridgePublisher(EventBridgeClient client, String eventBusName, String source) {
        this(client, eventBusName, source, 5, Duration.ofMillis(100), Duration.ofSeconds(2));
    }

    EventBridgePublisher(EventBridgeClient client, String eventBusName, String source, int maxAttempts,
                         Duration baseDelay, Duration maxDelay) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        this.client = client;
        this.eventBusName = eventBusName;
        this.source = source;
        this.maxAttempts = maxAttempts;
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
    }

    @Override
    public List<Unpublished> tryPublish(List<DomainEvent> events) {
        List<PutEventsRequestEntry> entries = new ArrayList<>(events.size());
        SortedMap<Integer, Unpublished> failed = new TreeMap<>();
        List<Integer> pending = new ArrayList<>();
        for (int position = 0; position < events.size(); position++) {
            DomainEvent event = events.get(position);
            PutEventsRequestEntry entry;
            try {
                entry = entry(event, eventBusName, source);
            } catch (IllegalArgumentException e) {
                LOG.error("Event {} ({}) not published: {}", event.id(), event.detailType(), e.getMessage(), e);
                entries.add(null);
                failed.put(position, Unpublished.refused(event, source, DETAIL_NOT_JSON));
                continue;
            }
            entries.add(entry);
            int size = entrySize(entry);
            if (size > MAX_CALL_BYTES) {
                LOG.error("Event {} ({}) not published: its entry is {} bytes, EventBridge accepts at most {}",
                        event.id(), event.detailType(), size, MAX_CALL_BYTES);
                failed.put(position, Unpublished.refused(event, source, ENTRY_TOO_LARGE));
            } else {
                pending.add(position);
            }
        }
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            Map<Integer, String> retry = new LinkedHashMap<>();
            for (List<Integer> call : calls(pending, entries)) {
                retry.putAll(send(call, entries, events, failed));
            }
            if (!retry.isEmpty() && (attempt == maxAttempts || !pause(attempt))) {
                LOG.error("{} events not published after {} attempts: {}", retry.size(), attempt,
                        retry.keySet().stream().map(position -> events.get(position).id()).toList());
                retry.forEach((position, errorCode) ->
                        failed.put(position, Unpublished.retryable(events.get(position), source, errorCode)));
                break;
            }
            pending = new ArrayList<>(retry.keySet());
        }
        return List.copyOf(failed.values());
    }

    /**
     * Sends one call; returns the positions worth another round, each with its error code, and adds those that never
     * will be to failed.
     */
    private Map<Integer, String> send(List<Integer> call, List<PutEventsRequestEntry> entries,
                                      List<DomainEvent> events, SortedMap<Integer, Unpublished> failed) {
        List<PutEventsResultEntry> results;
        try {
            results = client.putEvents(request(call, entries)).entries();
        } catch (SdkException e) {
            String errorCode = errorCode(e);
            Map<Integer, String> retry = new LinkedHashMap<>();
            if (retryable(e)) {
                LOG.warn("PutEvents call of {} entries failed, retryable: {} {}", call.size(), errorCode,
                        e.getMessage());
                call.forEach(position -> retry.put(position, errorCode));
                return retry;
            }
            LOG.error("PutEvents call of {} entries failed, not retryable: {} {}", call.size(), errorCode,
                    e.getMessage(), e);
            call.forEach(position -> failed.put(position, Unpublished.refused(events.get(position), source, errorCode)));
            return retry;
        }
        Map<Integer, String> retry = new LinkedHashMap<>();
        for (int i = 0; i < call.size(); i++) {
            int position = call.get(i);
            // Results line up with the request's entries by index; a missing one is treated as not accepted.
            PutEventsResultEntry result = i < results.size() ? results.get(i) : null;
            String errorCode = result == null ? NO_RESULT : result.errorCode();
            if (errorCode == null) {
                continue;
            }
            LOG.warn("Event {} ({}) rejected by EventBridge: {} {}", events.get(position).id(),
                    events.get(position).detailType(), errorCode, result == null ? "" : result.errorMessage());
            if (RETRYABLE_ENTRY_ERRORS.contains(errorCode)) {
                retry.put(position, errorCode);
            } else {
                failed.put(position, Unpublished.refused(events.get(position), source, errorCode));
            }
        }
        return retry;
    }

    /**
     * Throttling, 5xx, expired credentials and any failure on this side of the wire (I/O, timeouts, credentials that
     * could not be loaded) may pass; anything else EventBridge answers (validation, access, a missing bus) will not.
     * Events that cannot be sent at all (too large, a detail that is not JSON) never reach a call.
     */
    private static boolean retryable(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null
                && RETRYABLE_CALL_ERRORS.contains(service.awsErrorDetails().errorCode())) {
            return true;
        }
        if (e instanceof SdkServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500;
        }
        // A timed-out call may still have been accepted; resending risks a duplicate, which subscribers drop by
        // eventId, whereas not resending risks a lost event.
        return e instanceof SdkClientException || e instanceof ApiCallAttemptTimeoutException
                || e instanceof ApiCallTimeoutException;
    }

    private static String errorCode(SdkException e) {
        return e instanceof AwsServiceException service && service.awsErrorDetails() != null
                ? service.awsErrorDetails().errorCode() : e.getClass().getSimpleName();
    }

    /** Full jitter, so that concurrent shards throttled together do not retry in lockstep. */
    private boolean pause(int attempt) {
        long ceiling = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(attempt - 1, 20));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling + 1));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private PutEventsRequest request(List<Integer> call, List<PutEventsRequestEntry> entries) {
        return PutEventsRequest.builder().entries(call.stream().map(entries::get).toList()).build();
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
            if (call.size() == MAX_ENTRIES_PER_CALL || bytes + size > MAX_CALL_BYTES) {
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
