package io.tally.stream.engine;

import io.tally.stream.derive.Cascade;
import io.tally.stream.derive.CascadeRunner;
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
 * every delivery of its record. A cascade that fails fails its record, so the stream does not move past a removal
 * before all it removes in turn is gone. See {@code docs/exactly-once.md}, "Cascades".
 */
final class CascadeRun {
    private static final Logger LOG = LoggerFactory.getLogger(CascadeRun.class);

    private final CascadeRunner runner;
    private final StreamMetrics metrics;

    CascadeRun(CascadeRunner runner, StreamMetrics metrics) {
        this.runner = runner;
        this.metrics = metrics;
    }

    /** The cascades of every record of the batch, started on the pool. */
    List<Pending> start(BatchPlan plan, ExecutorService executor) {
        List<Pending> pending = new ArrayList<>();
        for (RecordChanges change : plan.changes()) {
            for (Cascade cascade : change.cascades()) {
                pending.add(new Pending(change, cascade, executor.submit(() -> runner.run(cascade))));
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
