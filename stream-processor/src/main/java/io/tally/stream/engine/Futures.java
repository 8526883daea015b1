package io.tally.stream.engine;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for the work of a batch on the engine's pool, and the earliest failure point of a batch. */
final class Futures {
    private Futures() {
    }

    /** The task's result; its runtime exception or error as thrown. Waits out interrupts (see below). */
    static <T> T await(Future<T> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    // The write is in flight and may commit: its outcome must be known before the batch reports.
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The lower of two zero-padded sequence numbers, either of which may be null (no failure). */
    static String min(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }
}
