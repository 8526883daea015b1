package io.tally.stream.rebuild;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.DeadLetterItem;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.events.DomainEvent;
import io.tally.stream.engine.DeadLetter;
import io.tally.stream.engine.DeadLetters;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.events.Unpublished;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Publishes the events of dead letters ({@link DeadLetter#events()}: events refused for good, or given up on) again,
 * once the cause is fixed, and marks each event it published in its letter ({@value #REPUBLISHED}, a string set of
 * event ids, and {@value #REPUBLISHED_AT}), so that running it again publishes nothing twice.
 *
 * <p>Each event goes out as it was first sent: its source (the letter's, or {@code defaultSource} for a letter filed
 * before letters kept it), detail type and detail, whose {@code eventId} subscribers drop duplicates by. The letter is
 * read again (strongly consistent) before its events are sent, so a stale listing cannot send what an earlier run
 * marked. The mark follows the publication: a run that dies between PutEvents' answer and the mark sends those events
 * once more on the next run, under the same {@code eventId}, which subscribers drop. Letters are kept (with their
 * marks) until deleted or expired, so that an operator sees what was republished.
 *
 * <p>An operator's tool ({@code tally-local dead-letters republish-events}), beside the rebuild: it runs in no
 * function, so the stream processor's role needs none of its reads.
 */
public final class EventRepublisher {
    /** The letter's attribute listing the ids of the events republished from it. */
    public static final String REPUBLISHED = "republished";
    /** When events of the letter were last republished. */
    public static final String REPUBLISHED_AT = "republishedAt";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> DETAIL = new TypeReference<>() {
    };

    private final DynamoDbClient dynamo;
    private final String tableName;
    private final Function<String, EventPublisher> publishers;
    private final String defaultSource;
    private final Clock clock;

    /**
     * @param publishers    the publisher of each source (EventBridge's source is set per publisher)
     * @param defaultSource the source of events of letters that do not name one
     */
    public EventRepublisher(DynamoDbClient dynamo, String tableName, Function<String, EventPublisher> publishers,
                            String defaultSource, Clock clock) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.publishers = Objects.requireNonNull(publishers, "publishers");
        this.defaultSource = Objects.requireNonNull(defaultSource, "defaultSource");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** What one letter gave: the events sent and marked, those marked before, and those the bus refused again. */
    public record LetterResult(Map<String, AttributeValue> key, int republished, int alreadyRepublished,
                               List<Unpublished> failed) {
    }

    /** What a run gave, letter by letter (letters without events are left out). */
    public record Report(List<LetterResult> letters) {
        public int republished() {
            return letters.stream().mapToInt(LetterResult::republished).sum();
        }

        public int alreadyRepublished() {
            return letters.stream().mapToInt(LetterResult::alreadyRepublished).sum();
        }

        public List<Unpublished> failed() {
            return letters.stream().flatMap(letter -> letter.failed().stream()).toList();
        }
    }

    /**
     * Republishes the events of these letters (items or just their keys) that are not marked yet, and marks those
     * that went out. Letters without events (poison records, refused derived writes) and items that are no dead
     * letter are skipped.
     */
    public Report republish(List<Map<String, AttributeValue>> letters) {
        List<LetterResult> results = new ArrayList<>();
        for (Map<String, AttributeValue> listed : letters) {
            Map<String, AttributeValue> key = Map.of(TableSchema.PK, listed.get(TableSchema.PK),
                    TableSchema.SK, listed.get(TableSchema.SK));
            Map<String, AttributeValue> letter = dynamo.getItem(r -> r.tableName(tableName).key(key)
                    .consistentRead(true)).item();
            if (letter == null || !isEventLetter(letter)) {
                continue;
            }
            results.add(republishLetter(key, letter));
        }
        return new Report(results);
    }

    private LetterResult republishLetter(Map<String, AttributeValue> key, Map<String, AttributeValue> letter) {
        Set<String> marked = letter.containsKey(REPUBLISHED) ? new HashSet<>(letter.get(REPUBLISHED).ss()) : Set.of();
        Map<String, List<DomainEvent>> bySource = new LinkedHashMap<>();
        List<Unpublished> failed = new ArrayList<>();
        int already = 0;
        for (JsonNode entry : entries(letter)) {
            String id = entry.path("id").asText();
            if (marked.contains(id)) {
                already++;
                continue;
            }
            String source = entry.hasNonNull("source") ? entry.get("source").asText() : defaultSource;
            JsonNode detail = entry.path("detail");
            DomainEvent event = new DomainEvent(id, entry.path("detailType").asText(),
                    detail.isObject() ? JSON.convertValue(detail, DETAIL) : Map.of());
            if (!detail.isObject()) {
                // Filed as text: the detail was never JSON (a derivation bug); nothing to send.
                failed.add(Unpublished.refused(event, source, "DetailNotJson"));
                continue;
            }
            bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(event);
        }
        List<String> published = new ArrayList<>();
        bySource.forEach((source, events) -> {
            List<Unpublished> notPublished = publish(publishers.apply(source), source, events);
            Set<String> notPublishedIds = new HashSet<>();
            notPublished.forEach(unpublished -> notPublishedIds.add(unpublished.event().id()));
            failed.addAll(notPublished);
            events.stream().map(DomainEvent::id).filter(id -> !notPublishedIds.contains(id)).forEach(published::add);
        });
        if (!published.isEmpty()) {
            mark(key, published);
        }
        return new LetterResult(key, published.size(), already, failed);
    }

    private static List<Unpublished> publish(EventPublisher publisher, String source, List<DomainEvent> events) {
        try {
            return publisher.tryPublish(events);
        } catch (RuntimeException e) {
            return events.stream().map(event -> Unpublished.retryable(event, source, e.getClass().getSimpleName()))
                    .toList();
        }
    }

    /** Adds the ids to the letter's marks; a letter deleted meanwhile is left deleted. */
    private void mark(Map<String, AttributeValue> key, List<String> ids) {
        try {
            dynamo.updateItem(r -> r.tableName(tableName).key(key)
                    .updateExpression("ADD #republished :ids SET #republishedAt = :now")
                    .conditionExpression("#type = :type")
                    .expressionAttributeNames(Map.of("#republished", REPUBLISHED, "#republishedAt", REPUBLISHED_AT,
                            "#type", TableSchema.ENTITY_TYPE))
                    .expressionAttributeValues(Map.of(":ids", AttributeValue.fromSs(ids),
                            ":now", AttributeValue.fromS(Timestamps.format(clock.instant())),
                            ":type", AttributeValue.fromS(DeadLetterItem.TYPE.attributeValue()))));
        } catch (ConditionalCheckFailedException e) {
            // Deleted by an operator while its events went out: nothing left to mark.
        }
    }

    private static boolean isEventLetter(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
        AttributeValue events = item.get(DeadLetters.EVENTS);
        return type != null && DeadLetterItem.TYPE.attributeValue().equals(type.s()) && events != null
                && events.s() != null;
    }

    private static JsonNode entries(Map<String, AttributeValue> letter) {
        try {
            return JSON.readTree(letter.get(DeadLetters.EVENTS).s());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the events of dead letter " + letter.get(TableSchema.PK).s() + " / "
                    + letter.get(TableSchema.SK).s() + " are not JSON", e);
        }
    }
}
