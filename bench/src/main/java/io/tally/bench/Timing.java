package io.tally.bench;

/** Elapsed time and pauses of the benchmark's runs. */
final class Timing {
    private Timing() {
    }

    static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
