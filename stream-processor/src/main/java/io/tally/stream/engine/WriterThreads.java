package io.tally.stream.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads of an engine's pool of derived writes: named after the pool, daemons. */
final class WriterThreads implements ThreadFactory {
    private static final AtomicInteger POOLS = new AtomicInteger();
    private final int pool = POOLS.incrementAndGet();
    private final AtomicInteger threads = new AtomicInteger();

    @Override
    public Thread newThread(Runnable runnable) {
        Thread thread = new Thread(runnable, "tally-derived-writes-" + pool + "-" + threads.incrementAndGet());
        // A Lambda container is frozen, not shut down: the pool must never keep a JVM alive on its own.
        thread.setDaemon(true);
        return thread;
    }
}
