package io.tally.local.maintenance;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/** Items scanned so far, on stderr at most every two seconds (scan pages arrive from several threads). */
final class Progress implements LongConsumer {
    private static final long EVERY_NANOS = 2_000_000_000L;

    private final PrintWriter err;
    private final AtomicLong lastPrinted = new AtomicLong(System.nanoTime());
    private final AtomicLong latest = new AtomicLong();

    Progress(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void accept(long scanned) {
        latest.accumulateAndGet(scanned, Math::max);
        long now = System.nanoTime();
        long last = lastPrinted.get();
        if (now - last >= EVERY_NANOS && lastPrinted.compareAndSet(last, now)) {
            err.println("  scanned " + latest.get() + " items");
        }
    }

    void done() {
        err.println("  scanned " + latest.get() + " items, done");
    }
}
