package io.tally.stream.engine;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.logging.InvocationLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cascades of a batch's records (base items that a removal removes in turn), run on the engine's pool beside the
 * derived writes. A cascade is not a derived write and has no watermark: it is idempotent by itself (a runner removes
 * what is still there, each item on a condition that it belongs to the removed item), so it is simply run again on
 * every delivery of its record until the shard's cursor acknowledges the record. A cascade that fails fails its record,
 * so the stream does not move past a removal before all it removes in turn is gone. See {@code docs/exactly-once.md},
 * "Cascades".
 */
final class CascadeRun {
    private static final Logger LOG = LoggerFactory.getLogger(CascadeRun.class);

    private final CascadeRunner runner;
    private final StreamMetrics metrics;

    CascadeRun(CascadeRunner runner, StreamMetrics metrics) {
        this.runner = runner;
        this.metrics = metrics;
    }

    /**
     * The cascades of the batch's records after {@code acknowledged}, started on the pool. A record the shard's cursor
     * acknowledged had its cascades completed then (a batch whose cascade fails acknowledges nothing), as its events
     * were published: a redelivery does not run them again. Running them would be harmless to the base items, but a
     * failure of one would report a failure point at or before the acknowledged record, which leaves nothing pending
     * in the cursor ({@link ShardCursors.Progress#after}) and would hide a failed write of a later record of the batch
     * from the guard against deliveries past the failure point.
     *
     * @param acknowledged the cursor's acknowledged record before the batch (zero-padded), or null
     */
    List<Pending> start(BatchPlan plan, String acknowledged, ExecutorService executor) {
        List<Pending> pending = new ArrayList<>();
        for (RecordChanges change : plan.changes()) {
            if (acknowledged != null && change.paddedSequence().compareTo(acknowledged) <= 0) {
                continue;
            }
            for (Cascade cascade : change.cascades()) {
                pending.add(new Pending(change, cascade,
                        executor.submit(InvocationLog.carried(() -> runner.run(cascade)))));
            }
        }
        return pending;
    }

    /** Waits for them; the lowest record whose cascade failed, or null. */
    String awaitAll(List<Pending> pending) {
        String failed = null;
        for (Pending cascade : pending) {
            try {
                metrics.cascadeDeletes(Futures.await(cascade.future()));
            } catch (RuntimeException e) {
                metrics.failure("cascade");
                LOG.warn("cascade of sequence {} failed: {}", cascade.change().record().sequenceNumber(),
                        cascade.cascade().describe(), e);
                failed = Futures.min(failed, cascade.change().paddedSequence());
            }
        }
        return failed;
    }

    record Pending(RecordChanges change, Cascade cascade, Future<Integer> future) {
    }
}
