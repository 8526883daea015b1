package io.tally.stream.engine;

import io.tally.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The derived writes of a batch as they ended, one {@link KeyWriter.Outcome} per item: the requests made, the items
 * written, the writes that failed (counted and logged), and the most costly write ({@code tally.stream.derived
 * .maxwriteunits}, and a warning naming its item when it is over {@link StreamMetrics#LARGE_ITEM_WRITE_UNITS}).
 *
 * @param failed  the outcomes of the writes that failed, in a list the {@link WriteGiveUp} removes those it files from
 * @param written the items that took a write and had none fail: the shard no longer remembers them as refused
 */
record WrittenItems(int requests, List<KeyWriter.Outcome> failed, List<Key> written) {
    private static final Logger LOG = LoggerFactory.getLogger(WrittenItems.class);

    /** Waits for every write of the batch. */
    static WrittenItems await(List<Future<KeyWriter.Outcome>> writes, StreamMetrics metrics) {
        int requests = 0;
        List<KeyWriter.Outcome> failed = new ArrayList<>();
        List<Key> written = new ArrayList<>();
        KeyWriter.Outcome largest = null;
        for (Future<KeyWriter.Outcome> future : writes) {
            KeyWriter.Outcome outcome = Futures.await(future);
            requests += outcome.requests();
            if (largest == null || outcome.writeUnits() > largest.writeUnits()) {
                largest = outcome;
            }
            if (outcome.written()) {
                written.add(outcome.key());
            }
            if (outcome.failed()) {
                failed.add(outcome);
                metrics.failure("derived-write");
                LOG.warn("derived write of {} failed from sequence {}", outcome.key(), outcome.failedAt(),
                        outcome.error());
            }
        }
        if (largest != null && largest.writeUnits() > 0) {
            metrics.maxWriteUnits(largest.writeUnits());
            if (largest.writeUnits() > StreamMetrics.LARGE_ITEM_WRITE_UNITS) {
                LOG.warn("large derived item {}: its write cost {} write units, so it holds up to {} KB; DynamoDB"
                        + " refuses an item over 400 KB for good (see docs/exactly-once.md, \"Derived writes DynamoDB"
                        + " refuses for good\")", largest.key(), largest.writeUnits(), largest.writeUnits());
            }
        }
        return new WrittenItems(requests, failed, written);
    }

    /** The lowest record a write that is still failed did not apply, or null. */
    String failedAt() {
        String first = null;
        for (KeyWriter.Outcome outcome : failed) {
            first = Futures.min(first, outcome.failedAt());
        }
        return first;
    }
}
