package io.tally.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The highest heap use seen while a phase runs, sampled every few milliseconds. The JVM also hosts DynamoDB
 * Local, so this is the whole process's heap, not the processor's alone; both processors are measured alike.
 */
final class HeapSampler implements AutoCloseable {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long peak;

    private HeapSampler() {
        thread = new Thread(this::sample, "heap-sampler");
        thread.setDaemon(true);
    }

    static HeapSampler start() {
        System.gc();
        HeapSampler sampler = new HeapSampler();
        sampler.peak = sampler.memory.getHeapMemoryUsage().getUsed();
        sampler.thread.start();
        return sampler;
    }

    private void sample() {
        while (running) {
            peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long peakBytes() {
        return peak;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
    }
}
