package io.tally.stream.testing;

import io.tally.core.events.DomainEvent;
import io.tally.stream.events.EventPublisher;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Keeps what it publishes; refuses the events a test names. */
public final class RecordingPublisher implements EventPublisher {
    private final List<DomainEvent> published = new ArrayList<>();
    private volatile Predicate<DomainEvent> refuse = event -> false;
    private volatile boolean down;

    @Override
    public synchronized List<DomainEvent> publish(List<DomainEvent> events) {
        if (down) {
            throw new IllegalStateException("event bus unreachable");
        }
        List<DomainEvent> failed = new ArrayList<>();
        for (DomainEvent event : events) {
            if (refuse.test(event)) {
                failed.add(event);
            } else {
                published.add(event);
            }
        }
        return failed;
    }

    public void refuse(Predicate<DomainEvent> refuse) {
        this.refuse = refuse;
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
