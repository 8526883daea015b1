package io.tally.bench;

/**
 * A daemon thread that takes a sample every few milliseconds until stopped: what the benchmark's samplers (heap, table
 * lock) share. Its name ends with {@value #SUFFIX}, which {@link CpuUse#isTooling} leaves out of the processor's CPU.
 */
final class SamplingThread {
    static final String SUFFIX = "-sampler";

    private final Thread thread;
    private volatile boolean running = true;

    /** @param sampler what is sampled; the thread is named {@code <sampler>-sampler} */
    SamplingThread(String sampler, long intervalMillis, Runnable sample) {
        thread = new Thread(() -> {
            while (running) {
                sample.run();
                try {
                    Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, sampler + SUFFIX);
        thread.setDaemon(true);
    }

    static boolean isSampler(String threadName) {
        return threadName.endsWith(SUFFIX);
    }

    void start() {
        thread.start();
    }

    /** Stops sampling and waits for the last sample to finish; once stopped, does nothing. */
    void stop() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
