package io.tally.stream.engine;

import io.tally.core.Key;
import java.util.Optional;

/**
 * Writes the contributions of one batch to one derived item: one conditional write, and when it is refused (the
 * item's watermark is ahead because an earlier attempt applied some of the records, or the item holds a newer
 * document written through another shard), the write recomputed from what the refusal returned. Never throws: a
 * failure is an outcome naming the lowest record not applied.
 */
final class KeyWriter {
    /**
     * Refusals in a row after which a write gives up. Within one batch a watermark moves only if the shard is
     * processed twice at the same time; giving up then fails the record and the retry sorts it out. A newer document
     * costs at most one refusal: the recomputed write leaves the document out.
     */
    static final int MAX_ATTEMPTS_PER_KEY = 4;

    /** The result of writing one derived item: {@code failedAt} is the lowest unapplied sequence when it failed. */
    record Outcome(Key key, int requests, String failedAt, RuntimeException error) {
        boolean failed() {
            return failedAt != null;
        }
    }

    private final DerivedStore store;
    private final StreamMetrics metrics;

    KeyWriter(DerivedStore store, StreamMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    Outcome write(KeyContributions contributions) {
        DerivedStore.Refused known = null;
        int requests = 0;
        for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_KEY; attempt++) {
            Optional<DerivedWrite> write;
            try {
                write = contributions.writeAfter(known);
            } catch (RuntimeException e) {
                return new Outcome(contributions.key(), requests, contributions.lowestAfter(watermark(known)), e);
            }
            if (write.isEmpty()) {
                return new Outcome(contributions.key(), requests, null, null);
            }
            DerivedStore.Outcome outcome;
            try {
                requests++;
                metrics.derivedWrite();
                outcome = store.apply(write.get());
            } catch (RuntimeException e) {
                return new Outcome(contributions.key(), requests, write.get().firstSequence(), e);
            }
            if (!(outcome instanceof DerivedStore.Refused refused)) {
                return new Outcome(contributions.key(), requests, null, null);
            }
            known = refused;
        }
        return new Outcome(contributions.key(), requests, contributions.lowestAfter(watermark(known)),
                new IllegalStateException("the watermark of " + contributions.key() + " kept moving during the batch:"
                        + " is the shard processed twice at the same time (ParallelizationFactor > 1)?"));
    }

    private static String watermark(DerivedStore.Refused known) {
        return known == null ? null : known.watermark();
    }
}
