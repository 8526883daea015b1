package io.tally.stream.engine;

import io.tally.core.Key;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

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

    /**
     * DynamoDB's answers that no retry can change: the request itself is refused (an item over 400 KB, an attribute
     * value DynamoDB does not take) or the item's partition is full (a local secondary index's 10 GB). Throttling,
     * server errors, missing tables and missing permissions are not among them: they clear, or an operator clears
     * them, and the records must then still be applied.
     */
    private static final Set<String> PERMANENT_ERRORS =
            Set.of("ValidationException", "ItemCollectionSizeLimitExceededException");

    /**
     * The result of writing one derived item: {@code unapplied} is every sequence of the batch whose contribution to
     * the item may not be in it, in stream order (empty when the write succeeded), and {@code error} why (also when
     * the failed write only repeated records the item holds). {@code applied}: the writes the item took, the most
     * costly of them {@code writeUnits} write units (0: not known).
     */
    record Outcome(Key key, int requests, RuntimeException error, List<String> unapplied, int applied,
                   int writeUnits) {
        Outcome(Key key, int requests, RuntimeException error, List<String> unapplied) {
            this(key, requests, error, unapplied, 0, 0);
        }

        static Outcome done(Key key, int requests, int applied, int writeUnits) {
            return new Outcome(key, requests, null, List.of(), applied, writeUnits);
        }

        /** Whether the item took a write and none failed: DynamoDB does not refuse it for good (any more). */
        boolean written() {
            return applied > 0 && error == null;
        }

        boolean failed() {
            return !unapplied.isEmpty();
        }

        /** The lowest unapplied sequence when the write failed, or null. */
        String failedAt() {
            return failed() ? unapplied.get(0) : null;
        }

        /** Whether the write failed with an error that retrying the same write cannot clear. */
        boolean permanent() {
            return error instanceof AwsServiceException service && service.awsErrorDetails() != null
                    && PERMANENT_ERRORS.contains(service.awsErrorDetails().errorCode());
        }
    }

    private final DerivedStore store;
    private final StreamMetrics metrics;

    KeyWriter(DerivedStore store, StreamMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    /**
     * Writes the item's contributions.
     *
     * @param acknowledged the shard's acknowledged record (null: none): every record up to it is applied to every
     *                     item, so a failure is reported at the item's first record after it, never before. A
     *                     redelivery of an old range that fails must name the first record that may really be
     *                     missing: the shard cursor takes a failure at or before its acknowledged record for an old
     *                     range replayed, with nothing new pending.
     */
    Outcome write(KeyContributions contributions, String acknowledged) {
        DerivedStore.Refused known = null;
        int requests = 0;
        int refusals = 0;
        int applied = 0;
        int writeUnits = 0;
        while (true) {
            Optional<DerivedWrite> write;
            try {
                write = contributions.writeAfter(known);
            } catch (RuntimeException e) {
                return failed(contributions, requests, applied, writeUnits, known, acknowledged, e);
            }
            if (write.isEmpty()) {
                return Outcome.done(contributions.key(), requests, applied, writeUnits);
            }
            DerivedStore.Outcome outcome;
            try {
                requests++;
                metrics.derivedWrite();
                outcome = store.apply(write.get());
            } catch (RuntimeException e) {
                return failed(contributions, requests, applied, writeUnits, known, acknowledged, e);
            }
            if (outcome instanceof DerivedStore.Refused refused) {
                if (++refusals == MAX_ATTEMPTS_PER_KEY) {
                    return failed(contributions, requests, applied, writeUnits, refused, acknowledged,
                            new IllegalStateException("the watermark of " + contributions.key() + " kept moving"
                                    + " during the batch: is the shard processed twice at the same time"
                                    + " (ParallelizationFactor > 1)?"));
                }
                known = refused;
            } else {
                // A write of the first records only (the item's contributions were too many for one): the item now
                // holds them, and the next write takes the rest on the condition that it still does. The refusals
                // counted are those in a row, of one run.
                refusals = 0;
                applied++;
                writeUnits = Math.max(writeUnits, ((DerivedStore.Applied) outcome).writeUnits());
                known = new DerivedStore.Refused(write.get().lastSequence(), write.get().hasDocument()
                        ? write.get().documentRevision() : known == null ? null : known.revision());
            }
        }
    }

    private static Outcome failed(KeyContributions contributions, int requests, int applied, int writeUnits,
                                  DerivedStore.Refused known, String acknowledged, RuntimeException error) {
        String watermark = known == null ? null : known.watermark();
        String through = watermark == null || acknowledged != null && acknowledged.compareTo(watermark) > 0
                ? acknowledged : watermark;
        List<String> unapplied = contributions.sequencesAfter(through);
        // Empty when every record of the write is applied already: the failed write only repeated them.
        return new Outcome(contributions.key(), requests, error, unapplied, applied, writeUnits);
    }
}
