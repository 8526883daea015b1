package io.tally.stream.engine;

import io.tally.core.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The per-shard cursor that enforces what the watermarks assume: the records of a shard are applied one batch at a
 * time, and after a batch reported its first failure F, no record after F is applied before F is. A port with a
 * DynamoDB adapter ({@link DynamoDbShardCursors}) and an in-memory one ({@link InMemoryShardCursors}).
 *
 * <p>A batch {@linkplain #claim claims} its shard before its first write and {@linkplain #release releases} it
 * after its last, storing the shard's {@link Progress} ({@link Progress#after} computes it). The claim is refused
 * while another invocation holds an unexpired lease on the shard (two consumers, or a ParallelizationFactor above
 * 1), and when the batch starts after the shard's pending record (a delivery past F). A claim that is never
 * released (the invocation died) leaves its first record pending once its lease lapses, unless that record was
 * acknowledged before.
 *
 * <p>Handed over instead of released ({@link Chain}): a batch that completed leaves its claim in place and passes it,
 * with the progress its release would have stored, to the shard's next invocation through the tumbling window's
 * state; that invocation's claim stores the progress and takes the shard in one write, on the condition that the
 * claim handed over is still the cursor's. One cursor write a batch instead of two. An invocation without that state
 * (a state lost, a second consumer) finds the claim held until its lease lapses; then, if it starts past the claim's
 * last record, it releases the claim on its holder's behalf with its batch taken as completed
 * ({@link ClaimMarks#takenOver}, {@link Progress#takenOver}) and claims.
 */
public interface ShardCursors {

    /**
     * Claims the shard for a batch starting at {@code firstSequence} (zero-padded), to be released at its end.
     *
     * @throws RuntimeException when the cursor could not be read or written: nothing was claimed
     */
    default Claim claim(String shardId, String firstSequence, Lease lease, Instant now) {
        return claim(shardId, firstSequence, firstSequence, lease, Chain.NONE, now);
    }

    /**
     * Claims the shard for a batch {@code firstSequence..lastSequence} (zero-padded): from the claim handed over in
     * {@code chain}, if it is still the cursor's (one write that also stores the progress handed over), else as
     * {@link #claim(String, String, Lease, Instant)} does; a claim that {@linkplain Chain#handsOver hands over} is
     * marked so, for an invocation without the window's state to take it over in time.
     *
     * @throws RuntimeException when the cursor could not be read or written: nothing was claimed
     */
    Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain, Instant now);

    /**
     * Ends the claim, storing the shard's progress after the batch.
     *
     * @return false when the lease had been lost to another invocation (the release changed nothing); true also when
     *         the shard is no longer held by this lease but already holds {@code progress} (an earlier attempt of this
     *         release committed and its answer was lost)
     * @throws RuntimeException when the cursor could not be written; the lease then lapses on its own
     */
    boolean release(String shardId, Lease lease, Progress progress, Instant now);

    /**
     * The shard's lineage ({@link io.tally.core.ShardCursorItem#LINEAGE}): the id of the first shard of the chain of
     * rollovers it continues, under whose token it writes its partials of shared items. Settled at the first call for
     * the shard and kept in its cursor, never changed after: as its records may be delivered again until they expire,
     * a shard must place them in the same partials every time. The first call takes the lineage of the shard's
     * {@linkplain ShardParents#soleParent sole parent}, as the parent's cursor records it, or else the shard's own id; a
     * cursor written before lineages, which holds a claim or a progress, gives the shard's own id (its partials were
     * written under it).
     *
     * @throws RuntimeException when a cursor could not be read or written: the batch must write nothing
     */
    String lineage(String shardId, ShardParents parents);

    /** The invocation holding a shard: a unique holder id, and the instant after which the claim lapses. */
    record Lease(String holder, Instant until) {
        public Lease {
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(until, "until");
        }
    }

    /**
     * A claim passed from one invocation of a shard to the next through the tumbling window's state: the holder and
     * first record of the claim left in place, and the progress the next claim stores (what a release would have).
     */
    record Handover(String holder, String from, Progress progress) {
        public Handover {
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(progress, "progress");
        }
    }

    /**
     * What a cursor records of a claim besides its holder and lease: its first record ({@code from}), and for a claim
     * to be handed over, its last record ({@code to}; null on a claim to be released).
     */
    record ClaimMarks(String from, String to) {
        /**
         * Whether a batch starting at {@code first}, once this claim lapsed, takes the shard over from it as from a
         * completed batch: the claim was to be handed over and the batch starts after its last record. The batch's own
         * mapping moves past a batch only once it succeeded (a batch whose invocation died is delivered again, from
         * its first record), so such a batch comes from an invocation that lost the window's state.
         */
        public boolean takenOver(String first) {
            return to != null && to.compareTo(first) < 0;
        }

        /**
         * Whether a batch starting at {@code first} that takes this claim over takes {@code pending} (a pending record
         * the cursor stored before the claim) as applied: the record lies within the claim's batch.
         */
        public boolean covers(Pending pending, String first) {
            return takenOver(first) && pending != null && pending.sequence().compareTo(to) <= 0;
        }
    }

    /**
     * How a batch's claim relates to the invocations before and after it: {@code received}, the claim the invocation
     * before handed over (null: none), and whether this batch's claim may be handed over in turn
     * ({@code handsOver}: the next invocation of the shard will get this one's window state).
     */
    record Chain(Handover received, boolean handsOver) {
        /** No window state: the claim is released at the batch's end. */
        public static final Chain NONE = new Chain(null, false);
    }

    /**
     * The lowest record of the shard that may not be applied (zero-padded sequence), the failed batches in a row
     * that reported it and when the first did ({@code since} null for a claim that was never released).
     */
    record Pending(String sequence, int attempts, Instant since) {
        public Pending {
            Objects.requireNonNull(sequence, "sequence");
        }

        /** Failed batches so far at {@code sequence}, 0 when the pending record is another one (or none). */
        public static int attemptsAt(Pending pending, String sequence) {
            return pending != null && pending.sequence().equals(sequence) ? pending.attempts() : 0;
        }
    }

    /**
     * An outage of the event bus the shard gave up on: the shard's events failed retryably until a record's reached
     * the give-up rule ({@link GiveUp}) at {@code since}, and its events were last filed as a dead letter at
     * {@code lastFiled}. While a give-up period has not passed since {@code lastFiled}, a batch files the events that
     * fail retryably at once, in whichever execution environment holds the shard; an event the bus takes ends it.
     * Milliseconds, as stored.
     */
    record Outage(Instant since, Instant lastFiled) {
        public Outage {
            since = Timestamps.truncate(Objects.requireNonNull(since, "since"));
            lastFiled = Timestamps.truncate(Objects.requireNonNull(lastFiled, "lastFiled"));
        }

        /** An outage that begins with a give-up at {@code now}. */
        public static Outage begin(Instant now) {
            return new Outage(now, now);
        }

        /** This outage, having filed events again at {@code now}. */
        public Outage filed(Instant now) {
            return new Outage(since, now);
        }

        /** Whether the outage is still taken as one at {@code now}: less than {@code period} since it last filed. */
        public boolean inForce(Instant now, Duration period) {
            return now.isBefore(lastFiled.plus(period));
        }
    }

    /**
     * What is known of a shard: every record up to {@code acknowledged} is applied (null: nothing known), and
     * {@code pending}, when present, is the lowest record that may not be; every record before it is applied.
     * {@code refused}: the derived items the shard gave up writing ({@link RefusedItems}), whose next write refused for
     * good is filed at once. {@code outage}: the outage of the event bus the shard gave up on, or null.
     */
    record Progress(Pending pending, String acknowledged, RefusedItems refused, Outage outage) {
        public static final Progress NONE = new Progress(null, null);

        public Progress {
            refused = refused == null ? RefusedItems.NONE : refused;
        }

        /** A progress that remembers no refused item and no outage. */
        public Progress(Pending pending, String acknowledged) {
            this(pending, acknowledged, RefusedItems.NONE, null);
        }

        /** A progress that remembers no outage. */
        public Progress(Pending pending, String acknowledged, RefusedItems refused) {
            this(pending, acknowledged, refused, null);
        }

        /** This progress, remembering {@code refused} instead. */
        public Progress withRefused(RefusedItems refused) {
            return new Progress(pending, acknowledged, refused, outage);
        }

        /** This progress, remembering {@code outage} instead (null: none). */
        public Progress withOutage(Outage outage) {
            return new Progress(pending, acknowledged, refused, outage);
        }

        /**
         * The first record of a claim that was never released (its invocation died), as a pending record: its batch
         * may have been applied in part. Null when there is none, when it was acknowledged since, or when it lies before
         * the pending record: every record before that one is applied, and the pending record stays pending, so the
         * claim adds nothing (a duplicate delivery of an applied range whose claim's answer was lost would otherwise
         * refuse for good every delivery from the pending record on, as past the claim's first record).
         */
        public Pending abandonedClaim(String claimedFrom) {
            if (!unfinished(claimedFrom) || pending != null && claimedFrom.compareTo(pending.sequence()) < 0) {
                return null;
            }
            return new Pending(claimedFrom, 0, null);
        }

        /**
         * Whether a claim from {@code claimedFrom} that was never released may have left its batch unfinished: it
         * starts after the acknowledged record. A claim made over such a claim is not to be taken over as completed
         * should it die too (its batch may be given up on by the mapping).
         */
        public boolean unfinished(String claimedFrom) {
            return claimedFrom != null && (acknowledged == null || claimedFrom.compareTo(acknowledged) > 0);
        }

        /**
         * This progress, after the batch of a lapsed claim to be handed over that a batch starting at {@code first}
         * {@linkplain ClaimMarks#takenOver takes over}, taken as completed: every record up to its last acknowledged, a
         * pending record within it applied.
         */
        public Progress takenOver(ClaimMarks claim, String first) {
            String reached = acknowledged == null || acknowledged.compareTo(claim.to()) < 0 ? claim.to() : acknowledged;
            return new Progress(claim.covers(pending, first) ? null : pending, reached, refused, outage);
        }

        /** This progress with the lower of its pending record and that of an abandoned claim. */
        public Progress withAbandonedClaim(String claimedFrom) {
            Pending abandoned = abandonedClaim(claimedFrom);
            if (abandoned == null || pending != null && pending.sequence().compareTo(abandoned.sequence()) <= 0) {
                return this;
            }
            return new Progress(abandoned, acknowledged, refused, outage);
        }

        /**
         * The progress after a batch {@code first..last} that was admitted under this progress and reported its
         * first unprocessed record {@code failedAt} (null: the batch completed). Every record before the batch was
         * applied (it started at or before the pending record), the batch applied every record before
         * {@code failedAt}, or all of them. The refused items and the outage are kept as they are: {@link #withRefused}
         * and {@link #withOutage} set the batch's.
         */
        public Progress after(String first, String last, String failedAt, Instant now) {
            if (failedAt == null) {
                String reached = acknowledged == null || acknowledged.compareTo(last) < 0 ? last : acknowledged;
                return new Progress(pending != null && pending.sequence().compareTo(last) > 0 ? pending : null,
                        reached, refused, outage);
            }
            if (pending != null && pending.sequence().compareTo(failedAt) > 0
                    || acknowledged != null && failedAt.compareTo(acknowledged) <= 0) {
                // The failed record was applied before (a redelivery of an old range): nothing new is pending.
                return this;
            }
            boolean again = pending != null && pending.sequence().equals(failedAt);
            // Milliseconds, as stored: a release can then recognise its own progress in the cursor.
            return new Progress(new Pending(failedAt, again ? pending.attempts() + 1 : 1,
                    again && pending.since() != null ? pending.since() : Timestamps.truncate(now)), acknowledged,
                    refused, outage);
        }
    }

    /** The result of {@link #claim}. */
    sealed interface Claim permits Granted, PastFailure, Held {
    }

    /**
     * The batch may run; {@code before} is the shard's progress at the claim. {@code handsOver} false: the claim may not
     * be handed over (it was made over the claim of an invocation that died, and is not marked for a takeover as
     * completed, {@link Progress#unfinished}), so a batch that completes releases it: a completed batch whose state
     * was then lost would otherwise leave a claim that no delivery past it may take over.
     */
    record Granted(Progress before, boolean handsOver) implements Claim {
        /** A claim that may be handed over, if its chain asks. */
        public Granted(Progress before) {
            this(before, true);
        }
    }

    /** Refused: the shard must be retried from {@code pending}, which lies before the batch's first record. */
    record PastFailure(Pending pending) implements Claim {
    }

    /** Refused: another invocation holds the shard until {@code until}. */
    record Held(String holder, Instant until) implements Claim {
    }
}
