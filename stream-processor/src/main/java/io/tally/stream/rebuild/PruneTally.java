package io.tally.stream.rebuild;

import io.tally.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;

/** What one run of the watermark pruner has done so far; its scan's segments count into it from their threads. */
final class PruneTally {
    private static final Logger LOG = LoggerFactory.getLogger(WatermarkPruner.class);
    /** The keys of the items DynamoDB refused that a report names; the log names every one. */
    static final int FAILED_KEYS_REPORTED = 10;

    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong pruned = new AtomicLong();
    private final AtomicLong removed = new AtomicLong();
    private final AtomicLong changed = new AtomicLong();
    private final AtomicLong cursors = new AtomicLong();
    private final AtomicLong folded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final List<Key> failedKeys = new ArrayList<>();

    /** Counts a page's items; returns the items scanned so far. */
    long scanned(int items) {
        return scanned.addAndGet(items);
    }

    /** Counts an item pruned: {@code watermarks} removed from it, and whether a chunk was refused by its condition. */
    void item(long watermarks, boolean changedMeanwhile) {
        if (watermarks > 0) {
            pruned.incrementAndGet();
            removed.addAndGet(watermarks);
        }
        if (changedMeanwhile) {
            changed.incrementAndGet();
        }
    }

    void cursorRemoved() {
        cursors.incrementAndGet();
    }

    /** Counts a partial folded into its base item, or one left to the next pass because it changed since the read. */
    void partial(boolean foldedNow) {
        (foldedNow ? folded : changed).incrementAndGet();
    }

    /** Counts and logs an item DynamoDB refused to change; the pass goes on past it. */
    void failed(Key key, SdkException failure) {
        failed.incrementAndGet();
        synchronized (failedKeys) {
            if (failedKeys.size() < FAILED_KEYS_REPORTED) {
                failedKeys.add(key);
            }
        }
        LOG.warn("watermark pruning could not change {} / {}, left as it is: {}", key.pk(), key.sk(),
                ItemFailures.describe(failure));
    }

    WatermarkPruner.Report report(int liveTokens, WatermarkPruner.Outcome outcome) {
        List<Key> keys;
        synchronized (failedKeys) {
            keys = List.copyOf(failedKeys);
        }
        return new WatermarkPruner.Report(scanned.get(), pruned.get(), removed.get(), changed.get(), cursors.get(),
                folded.get(), failed.get(), keys, liveTokens, outcome);
    }
}
