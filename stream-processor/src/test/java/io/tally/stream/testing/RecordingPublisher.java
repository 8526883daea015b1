package io.tally.stream.testing;

import io.tally.core.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import io.tally.stream.events.Unpublished;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Keeps what it publishes; refuses the events a test names, as throttling (retryable) or for good (as EventBridge
 * refuses every entry of a role without {@code events:PutEvents}, or of a deleted bus).
 */
public final class RecordingPublisher implements EventPublisher {
    /** The source it says it publishes with. */
    public static final String SOURCE = "io.tally";
    /** The error code of the events it refuses for good. */
    public static final String REFUSED_FOR_GOOD = "AccessDeniedException";

    private final List<DomainEvent> published = new ArrayList<>();
    private volatile Predicate<DomainEvent> refuse = event -> false;
    private volatile Predicate<DomainEvent> refuseForGood = event -> false;
    private volatile boolean down;

    @Override
    public synchronized List<Unpublished> tryPublish(List<DomainEvent> events) {
        if (down) {
            throw new IllegalStateException("event bus unreachable");
        }
        List<Unpublished> failed = new ArrayList<>();
        for (DomainEvent event : events) {
            if (refuseForGood.test(event)) {
                failed.add(Unpublished.refused(event, SOURCE, REFUSED_FOR_GOOD));
            } else if (refuse.test(event)) {
                failed.add(Unpublished.retryable(event, SOURCE, "ThrottlingException"));
            } else {
                published.add(event);
            }
        }
        return failed;
    }

    /** Refuses these events as throttled: the engine retries them from their record. */
    public void refuse(Predicate<DomainEvent> refuse) {
        this.refuse = refuse;
    }

    /** Refuses these events for good ({@value #REFUSED_FOR_GOOD}): the engine files them as dead letters at once. */
    public void refuseForGood(Predicate<DomainEvent> refuseForGood) {
        this.refuseForGood = refuseForGood;
    }

    public void down(boolean down) {
        this.down = down;
    }

    public synchronized List<DomainEvent> published() {
        return List.copyOf(published);
    }

    public synchronized List<String> publishedIds() {
        return published.stream().map(DomainEvent::id).toList();
    }

    public synchronized void clear() {
        published.clear();
    }
}
