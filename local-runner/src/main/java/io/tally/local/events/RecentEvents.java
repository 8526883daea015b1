package io.tally.local.events;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The newest events the bus accepted, matched or not, in memory: what {@code GET /events} shows. An event that
 * matched no rule is kept too (with no rule names), so that someone new to the rules still sees every event and
 * can tell a pattern that missed from an event that never came.
 */
final class RecentEvents implements EventTarget {
    private final int capacity;
    private final ArrayDeque<MatchedEvent> events;

    RecentEvents(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, not " + capacity);
        }
        this.capacity = capacity;
        this.events = new ArrayDeque<>(capacity);
    }

    int capacity() {
        return capacity;
    }

    @Override
    public synchronized void deliver(MatchedEvent event) {
        if (events.size() == capacity) {
            events.removeFirst();
        }
        events.addLast(event);
    }

    /** Up to {@code limit} events, newest first. */
    synchronized List<MatchedEvent> newest(int limit) {
        List<MatchedEvent> newest = new ArrayList<>(Math.min(limit, events.size()));
        Iterator<MatchedEvent> it = events.descendingIterator();
        while (it.hasNext() && newest.size() < limit) {
            newest.add(it.next());
        }
        return newest;
    }
}
