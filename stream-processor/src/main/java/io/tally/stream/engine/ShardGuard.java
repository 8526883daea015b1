package io.tally.stream.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's use of the {@link ShardCursors}: admits a batch before its first write (or says why not, with a
 * metric and a log line an operator can act on) and records how it ended.
 */
record ShardGuard(ShardCursors cursors, StreamMetrics metrics, Duration firstBackoff) {
    private static final Logger LOG = LoggerFactory.getLogger(ShardGuard.class);

    /**
     * Either the shard's progress at the claim, and whether the claim may be handed over
     * ({@link ShardCursors.Granted#handsOver}), or a refusal.
     */
    record Admission(ShardCursors.Progress before, boolean handsOver, String refusal) {
        static Admission refused(String refusal) {
            return new Admission(null, false, refusal);
        }
    }

    /**
     * Releases tried before the batch is reported failed (the SDK client retries each one on its own too). An attempt
     * that committed but whose answer was lost is recognised by the next attempt that is answered (the cursor then
     * holds this batch's progress), so the guard keeps asking: reporting the batch failed while its release had in
     * fact committed would leave the cursor without the pending record that refuses a delivery past the batch.
     */
    static final int RELEASE_ATTEMPTS = 8;
    /** The default pause before the second attempt, doubled before each further one up to {@link #MAX_BACKOFF}. */
    static final Duration FIRST_BACKOFF = Duration.ofMillis(10);
    static final Duration MAX_BACKOFF = Duration.ofMillis(400);

    /**
     * @param first the zero-padded sequence the batch claims the shard from
     * @param last  the zero-padded sequence of the batch's last record
     */
    Admission admit(String shardId, String first, String last, ShardCursors.Lease lease, ShardCursors.Chain chain,
                    Instant now) {
        ShardCursors.Claim claim;
        try {
            claim = cursors.claim(shardId, first, last, lease, chain, now);
        } catch (RuntimeException e) {
            metrics.guard("unavailable");
            LOG.warn("the cursor of shard {} could not be claimed; nothing written, the batch is retried", shardId, e);
            return Admission.refused("cursor unavailable: " + e);
        }
        if (claim instanceof ShardCursors.Granted granted) {
            return new Admission(granted.before(), granted.handsOver(), null);
        }
        if (claim instanceof ShardCursors.PastFailure past) {
            metrics.guard("past-failure");
            String reason = "delivery past the failure point: shard " + shardId + " must be retried from sequence "
                    + unpadded(past.pending().sequence()) + ", the batch's first change is at " + unpadded(first);
            LOG.error("{}; nothing written. Is a second consumer (event source mapping) reading the shard, or did the"
                    + " mapping skip records? See docs/exactly-once.md, \"When a guard trips\"", reason);
            return Admission.refused(reason);
        }
        ShardCursors.Held held = (ShardCursors.Held) claim;
        metrics.guard("held");
        String reason = "shard " + shardId + " is held by invocation " + held.holder() + " until " + held.until();
        LOG.warn("{}; nothing written, the batch is retried", reason);
        return Admission.refused(reason);
    }

    private static String unpadded(String padded) {
        return padded.replaceFirst("^0+(?=.)", "");
    }

    /**
     * Records how the batch ended. A release that fails keeps the shard held until the lease lapses (the invocation's
     * deadline), and one that committed unseen must be recognised, so it is tried several times, backing off, before
     * giving up.
     *
     * @return false when the end could not be recorded: the caller must have the whole batch retried
     */
    boolean release(String shardId, ShardCursors.Lease lease, ShardCursors.Progress after, Instant now) {
        return release(shardId, lease, after, now, false);
    }

    /**
     * Releases a claim handed over to an invocation that hands nothing over (the last of its window). A claim that is
     * no longer the cursor's (another invocation took the shard over since) leaves nothing to release.
     *
     * @return false when the cursor could not be written
     */
    boolean releaseHandedOver(String shardId, ShardCursors.Lease lease, ShardCursors.Progress after, Instant now) {
        return release(shardId, lease, after, now, true);
    }

    private boolean release(String shardId, ShardCursors.Lease lease, ShardCursors.Progress after, Instant now,
                            boolean handedOver) {
        for (int attempt = 1; attempt <= RELEASE_ATTEMPTS; attempt++) {
            try {
                if (cursors.release(shardId, lease, after, now)) {
                    return true;
                }
                if (handedOver) {
                    LOG.info("the claim handed over on shard {} is no longer the cursor's: nothing to release", shardId);
                    return true;
                }
                if (attempt == 1) {
                    LOG.error("the lease on shard {} was lost before the batch ended (the batch outlived its lease)",
                            shardId);
                } else {
                    LOG.warn("the cursor of shard {} was released by a failed-looking attempt, or lost; the batch is"
                            + " retried", shardId);
                }
                break;
            } catch (RuntimeException e) {
                LOG.warn("the cursor of shard {} could not be released (attempt {} of {})", shardId, attempt,
                        RELEASE_ATTEMPTS, e);
                if (attempt < RELEASE_ATTEMPTS && !firstBackoff.isZero()) {
                    Duration pause = firstBackoff.multipliedBy(1L << (attempt - 1));
                    LockSupport.parkNanos((pause.compareTo(MAX_BACKOFF) < 0 ? pause : MAX_BACKOFF).toNanos());
                }
            }
        }
        metrics.failure("cursor");
        return false;
    }
}
