package io.tally.local.stream;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand, to make records old without waiting. */
final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
        this.now = now;
    }

    void set(Instant value) {
        now = value;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
