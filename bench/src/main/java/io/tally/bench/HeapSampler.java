package io.tally.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The highest heap use seen while a phase runs, sampled every few milliseconds. The JVM also hosts DynamoDB
 * Local, so this is the whole process's heap, not the processor's alone; both processors are measured alike.
 */
final class HeapSampler implements AutoCloseable {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private volatile long peak;
    private final SamplingThread thread = new SamplingThread("heap", 5,
            () -> peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed()));

    private HeapSampler() {
    }

    static HeapSampler start() {
        System.gc();
        HeapSampler sampler = new HeapSampler();
        sampler.peak = sampler.memory.getHeapMemoryUsage().getUsed();
        sampler.thread.start();
        return sampler;
    }

    long peakBytes() {
        return peak;
    }

    @Override
    public void close() {
        thread.stop();
        peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
    }
}
