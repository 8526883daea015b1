package io.tally.stream.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a batch's domain events after the derived writes they describe: in record order, only the events of
 * the records before the first failure (their derived data is in), and names the first record whose events could
 * not be published, so that the retry starts there and publishes them again under the same ids.
 *
 * <p>Events that keep failing must not hold the shard forever (an entry EventBridge refuses for good, an event
 * too large for it): once the first record with unpublished events has failed {@link GiveUp#attempts} batches in
 * a row over at least {@link GiveUp#after}, its unpublished events are filed as a dead letter (derived writes
 * kept) and the shard moves on.
 */
final class EventRelease {
    private static final Logger LOG = LoggerFactory.getLogger(EventRelease.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code failedAt}: the padded sequence of the first record with an unpublished event that was not given up on,
     * or null; {@code deadLettered}: events filed as a dead letter instead.
     */
    record Outcome(int published, int failed, String failedAt, int deadLettered) {
        /** No event to publish. */
        static final Outcome NONE = published(0);

        /** Every event published, or failed again but of records processed before: nothing to publish again. */
        static Outcome published(int published) {
            return new Outcome(published, 0, null, 0);
        }

        /**
         * {@code failed} events not published, to publish again from the record at {@code failedAt} (null: none of
         * them is of a record still to process).
         */
        static Outcome failed(int published, int failed, String failedAt) {
            return new Outcome(published, failed, failedAt, 0);
        }

        /** This outcome with {@code deadLettered} events given up on and filed as a dead letter. */
        Outcome withDeadLettered(int deadLettered) {
            return new Outcome(published, failed, failedAt, deadLettered);
        }
    }

    private final EventPublisher publisher;
    private final DeadLetterSink deadLetters;
    private final GiveUp giveUp;
    private final StreamMetrics metrics;

    EventRelease(EventPublisher publisher, DeadLetterSink deadLetters, GiveUp giveUp, StreamMetrics metrics) {
        this.publisher = publisher;
        this.deadLetters = deadLetters;
        this.giveUp = giveUp;
        this.metrics = metrics;
    }

    /**
     * Publishes the events of the records before {@code failed} (all records when null), except those of records
     * the shard's progress says are done: their events were published (or filed) by the batch that did them, so a
     * redelivery, a replay from the trim horizon or a retry that starts before the failure point announces nothing
     * twice.
     *
     * @param before the shard's progress before this batch: the attempts at its pending record count toward giving
     *               up, and the records it says are done publish nothing
     */
    Outcome releaseBefore(String failed, List<RecordChanges> changes, ShardCursors.Progress before, Instant now) {
        ShardCursors.Pending previous = before.pending();
        List<DomainEvent> events = new ArrayList<>();
        List<RecordChanges> owners = new ArrayList<>();
        for (RecordChanges change : changes) {
            if (failed != null && change.paddedSequence().compareTo(failed) >= 0) {
                break;
            }
            if (isDone(change.paddedSequence(), before)) {
                continue;
            }
            for (DomainEvent event : change.events()) {
                events.add(event);
                owners.add(change);
            }
        }
        if (events.isEmpty()) {
            return Outcome.NONE;
        }
        List<DomainEvent> notPublished;
        try {
            notPublished = publisher.publish(events);
        } catch (RuntimeException e) {
            LOG.warn("publishing {} events failed", events.size(), e);
            notPublished = events;
        }
        metrics.eventsPublished(events.size() - notPublished.size());
        metrics.eventsFailed(notPublished.size());
        int published = events.size() - notPublished.size();
        if (notPublished.isEmpty()) {
            return Outcome.published(published);
        }
        Set<String> failedIds = new HashSet<>();
        notPublished.forEach(event -> failedIds.add(event.id()));
        // The unpublished events by record, in record order.
        Map<RecordChanges, List<DomainEvent>> byRecord = new LinkedHashMap<>();
        boolean named = false;
        for (int i = 0; i < events.size(); i++) {
            if (failedIds.contains(events.get(i).id())) {
                named = true;
                byRecord.computeIfAbsent(owners.get(i), owner -> new ArrayList<>()).add(events.get(i));
            }
        }
        if (!named) {
            // The publisher named events it was never given: the first record with events, so that nothing is lost.
            return Outcome.failed(published, notPublished.size(), owners.get(0).paddedSequence());
        }
        List<RecordChanges> failing = new ArrayList<>(byRecord.keySet());
        RecordChanges first = failing.get(0);
        if (!giveUp.reached(previous, first.paddedSequence(), now) || !fileDeadLetter(first, byRecord.get(first), previous)) {
            return Outcome.failed(published, notPublished.size(), first.paddedSequence());
        }
        int deadLettered = byRecord.get(first).size();
        metrics.eventsDeadLettered(deadLettered);
        String next = failing.size() > 1 ? failing.get(1).paddedSequence() : null;
        return Outcome.failed(published, notPublished.size() - deadLettered, next).withDeadLettered(deadLettered);
    }

    /**
     * Whether the shard's progress says the record was processed, its events included, by an earlier batch: it is
     * before the pending failure point (the batch that failed there published or filed the events before it), or at
     * or before the acknowledged record.
     */
    private static boolean isDone(String sequence, ShardCursors.Progress before) {
        return before.pending() != null && sequence.compareTo(before.pending().sequence()) < 0
                || before.acknowledged() != null && sequence.compareTo(before.acknowledged()) <= 0;
    }

    private boolean fileDeadLetter(RecordChanges change, List<DomainEvent> events, ShardCursors.Pending previous) {
        SourceRecord record = change.record();
        int attempts = GiveUp.attempt(previous, change.paddedSequence());
        String reason = events.size() + " domain event(s) not published after " + attempts
                + " attempts; the record's derived data is applied";
        try {
            deadLetters.send(DeadLetter.ofEvents(record, toJson(events), reason));
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("events of record {} (sequence {}) could not be filed as a dead letter", record.eventId(),
                    record.sequenceNumber(), e);
            return false;
        }
        LOG.error("gave up publishing {} event(s) of record {} (shard {}, sequence {}) after {} attempts: filed as a"
                + " dead letter, to publish by hand: {}", events.size(), record.eventId(), record.shardId(),
                record.sequenceNumber(), attempts, events.stream().map(DomainEvent::id).toList());
        return true;
    }

    static String toJson(List<DomainEvent> events) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (DomainEvent event : events) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", event.id());
            entry.put("detailType", event.detailType());
            entry.put("detail", event.detail());
            entries.add(entry);
        }
        try {
            return JSON.writeValueAsString(entries);
        } catch (JsonProcessingException e) {
            // Details hold JSON-compatible values only (DomainEvent's contract): this is a bug, not an input.
            throw new IllegalStateException("domain events are not JSON-compatible", e);
        }
    }
}
