package io.tally.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * How busy DynamoDB Local's table write lock was while a phase ran. DynamoDB Local 3.x runs every write to a table
 * (PutItem, UpdateItem, DeleteItem) inside {@code LocalDBAccess.WriteLockWithTimeout.execute}, holding that table's
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} write lock on its HTTP thread for the whole write,
 * including the SQLite statements it hands to its SQLite thread and waits for. Writes to one table therefore run one at
 * a time whatever the client's concurrency, and a single-table design sends all its writes to one table. DynamoDB
 * itself has no such lock.
 *
 * <p>Every few milliseconds the sampler reads the stacks of DynamoDB Local's HTTP threads: a thread inside
 * {@code execute} holds the lock unless the frame above it is the lock's {@code tryLock} (then it waits for it). A
 * sample is <em>held</em> when some thread holds it, and <em>occupied</em> when some thread holds or waits for it: a
 * lock that is occupied but not held is being handed from one writer to the next. Occupied near 100% means the lock,
 * not the client, set the phase's pace.
 */
final class TableLockSampler implements AutoCloseable {
    static final String LOCK_FRAME_CLASS = "software.amazon.dynamodb.services.local.shared.access.LocalDBAccess$WriteLockWithTimeout";
    private static final String WRITE_LOCK_CLASS = "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock";
    /** The lock's frame is 5 to 7 deep in a waiting or holding thread; deeper frames of a holder are its write. */
    private static final int DEPTH = 48;
    private static final long INTERVAL_MILLIS = 5;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final SamplingThread thread = new SamplingThread("lock", INTERVAL_MILLIS, this::sample);
    private long[] ids = new long[0];
    private long rounds;
    private long samples;
    private long held;
    private long occupied;
    private long waiting;

    private TableLockSampler() {
    }

    static TableLockSampler start() {
        TableLockSampler sampler = new TableLockSampler();
        sampler.thread.start();
        return sampler;
    }

    /** What one thread was doing with the lock. */
    enum State { NONE, WAITING, HOLDING }

    static State state(StackTraceElement[] stack) {
        for (int i = 0; i < stack.length; i++) {
            if (stack[i].getClassName().equals(LOCK_FRAME_CLASS) && stack[i].getMethodName().equals("execute")) {
                boolean acquiring = i > 0 && stack[i - 1].getClassName().equals(WRITE_LOCK_CLASS)
                        && stack[i - 1].getMethodName().startsWith("tryLock");
                return acquiring ? State.WAITING : State.HOLDING;
            }
        }
        return State.NONE;
    }

    private void sample() {
        if (rounds++ % 200 == 0) {
            ids = dynamoDbLocalThreads();
        }
        int holders = 0;
        int waiters = 0;
        for (ThreadInfo info : threads.getThreadInfo(ids, DEPTH)) {
            if (info == null) {
                continue;
            }
            switch (state(info.getStackTrace())) {
                case HOLDING -> holders++;
                case WAITING -> waiters++;
                default -> { }
            }
        }
        record(holders, waiters);
    }

    synchronized void record(int holders, int waiters) {
        samples++;
        held += holders > 0 ? 1 : 0;
        occupied += holders + waiters > 0 ? 1 : 0;
        waiting += waiters;
    }

    private long[] dynamoDbLocalThreads() {
        return Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds()))
                .filter(info -> info != null && CpuUse.isDynamoDbLocal(info.getThreadName()))
                .mapToLong(ThreadInfo::getThreadId).toArray();
    }

    /** Stops sampling; the lock's use over the phase (null when no sample was taken). */
    Results.TableLock stop() {
        close();
        synchronized (this) {
            if (samples == 0) {
                return null;
            }
            return new Results.TableLock(samples, (double) held / samples, (double) occupied / samples,
                    (double) waiting / samples);
        }
    }

    @Override
    public void close() {
        thread.stop();
    }
}
