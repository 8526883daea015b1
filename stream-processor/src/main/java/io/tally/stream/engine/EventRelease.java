package io.tally.stream.engine;

import io.tally.stream.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a batch's domain events after the derived writes they describe: in record order, only the events of
 * the records before the first failure (their derived data is in), and names the first record whose events could
 * not be published, so that the retry starts there and publishes them again under the same ids.
 */
final class EventRelease {
    private static final Logger LOG = LoggerFactory.getLogger(EventRelease.class);

    /** {@code failedAt}: the padded sequence of the first record with an unpublished event, or null. */
    record Outcome(int published, int failed, String failedAt) {
    }

    private final EventPublisher publisher;
    private final StreamMetrics metrics;

    EventRelease(EventPublisher publisher, StreamMetrics metrics) {
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /** Publishes the events of the records before {@code failed} (all records when null). */
    Outcome releaseBefore(String failed, List<RecordChanges> changes) {
        List<DomainEvent> events = new ArrayList<>();
        List<RecordChanges> owners = new ArrayList<>();
        for (RecordChanges change : changes) {
            if (failed != null && change.paddedSequence().compareTo(failed) >= 0) {
                break;
            }
            for (DomainEvent event : change.events()) {
                events.add(event);
                owners.add(change);
            }
        }
        if (events.isEmpty()) {
            return new Outcome(0, 0, null);
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
        if (notPublished.isEmpty()) {
            return new Outcome(events.size(), 0, null);
        }
        Set<String> failedIds = new HashSet<>();
        notPublished.forEach(event -> failedIds.add(event.id()));
        // The first record with an event that failed; when the publisher names events it was never given, the
        // first record with events, so that nothing is lost.
        String failedAt = owners.get(0).paddedSequence();
        for (int i = 0; i < events.size(); i++) {
            if (failedIds.contains(events.get(i).id())) {
                failedAt = owners.get(i).paddedSequence();
                break;
            }
        }
        return new Outcome(events.size() - notPublished.size(), notPublished.size(), failedAt);
    }
}
