package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the table lock sampler reads a stack, and the ceiling it derives; {@link TableLockSamplerIT} runs it for real. */
class TableLockSamplerTest {
    @Test
    void aThreadInsideTheLocksFrame_holdsIt_unlessTheFrameAboveIsTryLock() {
        StackTraceElement execute = new StackTraceElement(TableLockSampler.LOCK_FRAME_CLASS, "execute", "LocalDBAccess.java", 411);
        StackTraceElement tryLock = new StackTraceElement("java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock",
                "tryLock", null, 1);
        StackTraceElement park = new StackTraceElement("jdk.internal.misc.Unsafe", "park", null, -2);
        StackTraceElement critical = new StackTraceElement(
                "software.amazon.dynamodb.services.local.shared.access.api.dp.UpdateItemFunction$1", "criticalSection", null, 1);
        StackTraceElement jetty = new StackTraceElement("org.eclipse.jetty.server.Server", "handle", null, 1);

        assertThat(TableLockSampler.state(new StackTraceElement[] {park, tryLock, execute, jetty}))
                .isEqualTo(TableLockSampler.State.WAITING);
        assertThat(TableLockSampler.state(new StackTraceElement[] {park, critical, execute, jetty}))
                .isEqualTo(TableLockSampler.State.HOLDING);
        assertThat(TableLockSampler.state(new StackTraceElement[] {park, jetty})).isEqualTo(TableLockSampler.State.NONE);
        // Occupied 80% of the time at 400 records/s: 500 with the lock never idle.
        assertThat(new Results.TableLock(10, 0.7, 0.8, 1).ceiling(400)).isEqualTo(500);
        assertThat(new Results.TableLock(10, 0, 0, 0).ceiling(400)).isZero();
    }
}
