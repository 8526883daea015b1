package io.tally.stream.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * One phase of a watermark pruner's pass: a parallel scan in segments ({@code Segment}, {@code TotalSegments}), each
 * on its own thread from its stored position ({@link PrunerPosition.Segment}). After each page it has dealt with, a
 * segment stores its position (the page's last key, or that it reached its end), so a page is dealt with again only
 * when a run stopped while on it.
 *
 * <p>A segment stops at its end; when the run's time is up ({@code mayContinue}, asked after each page, so that each
 * segment takes at least one page per run); when a page's work asked the phase to stop; or when another segment
 * failed. The scan returns, or throws the first failure, only once every segment has stopped, so that each has
 * stored the position of its last page done.
 */
final class SegmentedScan {
    /** Reads one page of a segment, from the key after which it starts (null: the segment's start). */
    interface Pages {
        ScanResponse page(int segment, int segments, Map<String, AttributeValue> start);
    }

    /** Deals with one page's items; false asks the phase to stop after this page. */
    interface Work {
        boolean handle(List<Map<String, AttributeValue>> items);
    }

    /** Stores that a segment has done every item up to a key, or (null) all of its items. */
    interface Positions {
        void store(int segment, Map<String, AttributeValue> after);
    }

    private SegmentedScan() {
    }

    /**
     * Scans every segment not done from its position.
     *
     * @return whether every segment has reached its end
     */
    static boolean run(List<PrunerPosition.Segment> segments, Pages pages, Work work, Positions positions,
                       BooleanSupplier mayContinue) {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean allDone = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(segments.size(), runnable -> {
            Thread thread = new Thread(runnable, "watermark-pruner-segment");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int segment = 0; segment < segments.size(); segment++) {
                PrunerPosition.Segment position = segments.get(segment);
                if (position.done()) {
                    continue;
                }
                int number = segment;
                futures.add(pool.submit(() -> {
                    try {
                        if (!scan(number, segments.size(), position.after(), pages, work, positions, mayContinue,
                                stop)) {
                            allDone.set(false);
                        }
                    } catch (RuntimeException | Error e) {
                        stop.set(true);
                        throw e;
                    }
                }));
            }
            Throwable failure = null;
            for (Future<?> future : futures) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    } else {
                        failure.addSuppressed(e.getCause());
                    }
                }
            }
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            return allDone.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.set(true);
            pool.shutdownNow();
            throw new IllegalStateException("interrupted while scanning", e);
        } finally {
            pool.shutdown();
        }
    }

    /** @return whether the segment reached its end */
    private static boolean scan(int segment, int segments, Map<String, AttributeValue> after, Pages pages, Work work,
                                Positions positions, BooleanSupplier mayContinue, AtomicBoolean stop) {
        Map<String, AttributeValue> next = after;
        do {
            ScanResponse page = pages.page(segment, segments, next);
            if (!work.handle(page.items())) {
                stop.set(true);
            }
            next = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            positions.store(segment, next);
        } while (next != null && !stop.get() && mayContinue.getAsBoolean());
        return next == null;
    }
}
