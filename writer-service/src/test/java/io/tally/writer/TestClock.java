package io.tally.writer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that tests control: it stands still until moved ({@link #set}, {@link #advance}) and, when made with
 * {@link #stepping}, also moves forward by a fixed step every time it is read, so that successive server
 * timestamps are distinct and predictable without sleeping. Safe to share between threads.
 */
public final class TestClock extends Clock {
    private final AtomicReference<Instant> next;
    private final Duration step;

    public TestClock(Instant start) {
        this(start, Duration.ZERO);
    }

    private TestClock(Instant start, Duration step) {
        this.next = new AtomicReference<>(start);
        this.step = step;
    }

    public static TestClock stepping(Instant start, Duration step) {
        return new TestClock(start, step);
    }

    public void set(Instant instant) {
        next.set(instant);
    }

    public Instant advance(Duration duration) {
        return next.updateAndGet(i -> i.plus(duration));
    }

    /** The instant the next read will return, without taking it. */
    public Instant peek() {
        return next.get();
    }

    @Override
    public Instant instant() {
        return next.getAndUpdate(now -> now.plus(step));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** The server only ever asks for instants, whose meaning does not depend on a zone. */
    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
