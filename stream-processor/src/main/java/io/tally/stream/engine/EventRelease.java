package io.tally.stream.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.events.Unpublished;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a batch's domain events after the derived writes they describe: in record order, only the events of
 * the records before the first failure (their derived data is in), and names the first record whose events could
 * not be published, so that the retry starts there and publishes them again under the same ids.
 *
 * <p>Events must not hold the shard when retrying cannot help. An event the bus refuses for good (the publisher says
 * it is not {@linkplain Unpublished#retryable() retryable}: a permission, a deleted bus, a malformed or oversized
 * entry) is filed as a dead letter at once, with every other such event of the batch's records before the failure
 * point, each letter holding its events whole (source, detail type, detail with its {@code eventId}) so that
 * {@link io.tally.stream.rebuild.EventRepublisher} can publish them later; the shard moves on in the same batch. An event that may pass
 * (throttling, an internal failure, a timeout) fails its record, and the retry starts there; once that record has
 * failed {@link GiveUp#attempts} batches in a row over at least {@link GiveUp#after}, its unpublished events are
 * filed too, and the shard takes the bus to be in an outage ({@link ShardCursors.Outage}, in its cursor), filing its
 * next retryable failures at once. A record's derived writes are kept either way.
 *
 * <p>Why a dead letter per record rather than an outbox the shard leaves behind: the dead letters are already the
 * durable, idempotent store (keyed by the record, {@code DEADLETTER#<day>#<slot>}) with a TTL, an alarm, an operator's
 * tool and the fault test's oracle; an outbox would be a second such store, and a drainer of its own that must run
 * while the bus refuses everything. Filing only the records the shard moves past keeps each letter written once in
 * the normal course: a record after the failure point is retried anyway, and files its letter then.
 */
final class EventRelease {
    private static final Logger LOG = LoggerFactory.getLogger(EventRelease.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code failedAt}: the padded sequence of the first record with an unpublished event that was not given up on,
     * or null; {@code deadLettered}: events filed as a dead letter instead; {@code outage}: the outage of the bus the
     * shard gave up on, as its cursor is to keep it after the batch (null: none).
     */
    record Outcome(int published, int failed, String failedAt, int deadLettered, ShardCursors.Outage outage) {
        /** No event to publish. */
        static final Outcome NONE = published(0);

        /** Every event published, or failed again but of records processed before: nothing to publish again. */
        static Outcome published(int published) {
            return new Outcome(published, 0, null, 0, null);
        }

        /**
         * {@code failed} events not published, to publish again from the record at {@code failedAt} (null: none of
         * them is of a record still to process).
         */
        static Outcome failed(int published, int failed, String failedAt) {
            return new Outcome(published, failed, failedAt, 0, null);
        }

        /** This outcome with {@code deadLettered} events given up on and filed as a dead letter. */
        Outcome withDeadLettered(int deadLettered) {
            return new Outcome(published, failed, failedAt, deadLettered, outage);
        }

        /** This outcome, leaving the shard in {@code outage} (null: none). */
        Outcome withOutage(ShardCursors.Outage outage) {
            return new Outcome(published, failed, failedAt, deadLettered, outage);
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
     * <p>Once a record's events that failed retryably have been given up on, the bus has failed for at least the
     * give-up period: the shard is then in an outage ({@link ShardCursors.Outage}, kept in its cursor, so that every
     * execution environment that holds the shard knows it), and its other retryable failures are taken as the same
     * outage and filed at once, until the bus takes one of the shard's events again or a give-up period passes with
     * nothing filed. Without it, a bus that fails every call (throttled for hours, an unavailable endpoint) would pass
     * one record per give-up period: about six an hour, until the mapping's record age discards the rest; kept in one
     * environment's memory only, it would make each new environment wait the period again.
     *
     * @param before the shard's progress before this batch: the attempts at its pending record count toward giving
     *               up, the records it says are done publish nothing, and its outage, while in force, files the
     *               retryable failures at once
     * @return what was published and filed, with the outage the shard's cursor is to keep
     */
    Outcome releaseBefore(String failed, List<RecordChanges> changes, ShardCursors.Progress before, Instant now) {
        String shard = changes.isEmpty() ? null : changes.get(0).record().shardId();
        ShardCursors.Outage outage = before.outage();
        if (outage != null && !outage.inForce(now, giveUp.after())) {
            LOG.info("the event bus outage that shard {} gave up on at {} is over: nothing was filed in the {}"
                    + " since {}", shard, outage.since(), giveUp.after(), outage.lastFiled());
            outage = null;
        }
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
            return Outcome.NONE.withOutage(outage);
        }
        List<Unpublished> notPublished;
        try {
            notPublished = publisher.tryPublish(events);
        } catch (RuntimeException e) {
            LOG.warn("publishing {} events failed", events.size(), e);
            notPublished = events.stream()
                    .map(event -> Unpublished.retryable(event, null, e.getClass().getSimpleName())).toList();
        }
        metrics.eventsPublished(events.size() - notPublished.size());
        metrics.eventsFailed(notPublished.size());
        int published = events.size() - notPublished.size();
        if (published > 0 && outage != null) {
            // The bus takes events again: what it refuses now (throttling under load) is retried as usual.
            LOG.info("the event bus takes the events of shard {} again: the outage it gave up on at {} is over",
                    shard, outage.since());
            outage = null;
        }
        if (notPublished.isEmpty()) {
            return Outcome.published(published);
        }
        Map<String, Unpublished> byId = new HashMap<>();
        notPublished.forEach(unpublished -> byId.put(unpublished.event().id(), unpublished));
        // The unpublished events by record, in record order.
        Map<RecordChanges, List<Unpublished>> byRecord = new LinkedHashMap<>();
        for (int i = 0; i < events.size(); i++) {
            Unpublished unpublished = byId.get(events.get(i).id());
            if (unpublished != null) {
                byRecord.computeIfAbsent(owners.get(i), owner -> new ArrayList<>()).add(unpublished);
            }
        }
        if (byRecord.isEmpty()) {
            // The publisher named events it was never given: the first record with events, so that nothing is lost.
            return Outcome.failed(published, notPublished.size(), owners.get(0).paddedSequence()).withOutage(outage);
        }
        return fileOrFail(shard, byRecord, published, notPublished.size(), before.pending(), outage, now);
    }

    /**
     * Walks the records with unpublished events in record order: a record whose events were all refused for good,
     * or whose retryable failures have reached the give-up rule or fall in an outage already given up on, is filed as
     * a dead letter and passed; the first other one (or one whose letter could not be filed) is the failure point,
     * and the records after it are left to the retry that starts there. A retryable failure filed begins the outage,
     * or marks the one in force as having filed now.
     *
     * @param outage the outage in force at the batch (null: none)
     */
    private Outcome fileOrFail(String shard, Map<RecordChanges, List<Unpublished>> byRecord, int published,
                               int notPublished, ShardCursors.Pending previous, ShardCursors.Outage outage,
                               Instant now) {
        int deadLettered = 0;
        String failedAt = null;
        for (Map.Entry<RecordChanges, List<Unpublished>> entry : byRecord.entrySet()) {
            RecordChanges change = entry.getKey();
            List<Unpublished> unpublished = entry.getValue();
            boolean retryable = unpublished.stream().anyMatch(Unpublished::retryable);
            boolean reached = retryable && giveUp.reached(previous, change.paddedSequence(), now);
            String why = !retryable ? "refused for good" : reached
                    ? "given up after " + GiveUp.attempt(previous, change.paddedSequence()) + " attempts"
                    : outage == null ? null : "given up at once, in an outage of the bus the shard gave up on at "
                    + outage.since();
            if (why == null || !fileDeadLetter(change, unpublished, why)) {
                failedAt = change.paddedSequence();
                break;
            }
            if (retryable) {
                if (outage == null) {
                    LOG.warn("the event bus is taken to be in an outage for shard {}: its events that fail retryably"
                            + " are filed at once until the bus takes one or {} pass with nothing filed", shard,
                            giveUp.after());
                }
                outage = outage == null ? ShardCursors.Outage.begin(now) : outage.filed(now);
            }
            deadLettered += unpublished.size();
        }
        if (deadLettered > 0) {
            metrics.eventsDeadLettered(deadLettered);
        }
        return Outcome.failed(published, notPublished - deadLettered, failedAt).withDeadLettered(deadLettered)
                .withOutage(outage);
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

    private boolean fileDeadLetter(RecordChanges change, List<Unpublished> events, String why) {
        SourceRecord record = change.record();
        Set<String> codes = new TreeSet<>();
        events.forEach(event -> codes.add(event.errorCode()));
        String reason = events.size() + " domain event(s) not published (" + why + ": "
                + String.join(", ", codes) + "); the record's derived data is applied";
        try {
            deadLetters.send(DeadLetter.ofEvents(record, toJson(events), reason));
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("events of record {} (sequence {}) could not be filed as a dead letter", record.eventId(),
                    record.sequenceNumber(), e);
            return false;
        }
        LOG.error("gave up publishing {} event(s) of record {} (shard {}, sequence {}; {}): filed as a dead letter, to"
                + " republish with tally-local dead-letters republish-events: {}", events.size(), record.eventId(),
                record.shardId(), record.sequenceNumber(), String.join(", ", codes),
                events.stream().map(event -> event.event().id()).toList());
        return true;
    }

    /**
     * The letter's {@code events}: a JSON array of {@code {"id","source","detailType","detail","errorCode"}}, each
     * event whole as it was sent ({@code source} absent when the publisher did not say), so that it can be sent
     * again as it was.
     */
    static String toJson(List<Unpublished> events) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Unpublished unpublished : events) {
            DomainEvent event = unpublished.event();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", event.id());
            if (unpublished.source() != null) {
                entry.put("source", unpublished.source());
            }
            entry.put("detailType", event.detailType());
            entry.put("detail", detail(event));
            entry.put("errorCode", unpublished.errorCode());
            entries.add(entry);
        }
        try {
            return JSON.writeValueAsString(entries);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the entries hold JSON trees and strings only", e);
        }
    }

    /**
     * The detail as a JSON tree, with the {@code eventId} subscribers drop duplicates by; a detail that is not JSON-compatible (a derivation bug, which the publisher refuses
     * for good) as its text, so that the letter is filed and the shard moves on rather than fail on it every time.
     */
    private static Object detail(DomainEvent event) {
        // As the publisher sends it: eventId first, then the detail's fields.
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", event.id());
        event.detail().forEach(detail::putIfAbsent);
        try {
            return JSON.valueToTree(detail);
        } catch (IllegalArgumentException e) {
            return String.valueOf(event.detail());
        }
    }
}
