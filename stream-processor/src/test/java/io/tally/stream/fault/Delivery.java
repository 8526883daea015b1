package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.stream.engine.SourceRecord;
import io.tally.core.events.DomainEvent;
import io.tally.stream.testing.RecordingPublisher;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * One consumer of one shard that misbehaves like an event source mapping on a bad day, one invocation per
 * {@link #step()}: random batch boundaries, retries from the reported record or from any earlier one, duplicated
 * deliveries of acknowledged ranges, crashes that stop an invocation between two calls, an event bus that refuses
 * entries, and (when asked) deliveries that start after the reported failure point.
 */
final class Delivery {
    /**
     * Invocations (and refusals in a row) after which a shard that is not done counts as stuck:
     * {@code -Dtally.fault.maxInvocations}, 20,000 by default.
     */
    private static final int MAX_INVOCATIONS = Integer.getInteger("tally.fault.maxInvocations", 20_000);
    /**
     * How long refusals in a row may last, in real time, before the shard counts as stuck:
     * {@code -Dtally.fault.maxRefusalSeconds}, 120 by default. A shard is refused while another invocation's lease is
     * in force (50 ms, 4 s with two consumers), so a wait is seconds at most; a stalled shard, refused for good, was
     * counted only by the invocation limit, which its refusals (5 ms apart, slower under load) took 15 minutes and
     * more to reach.
     */
    private static final Duration MAX_REFUSAL = Duration.ofSeconds(Long.getLong("tally.fault.maxRefusalSeconds", 120L));

    /** Runs one invocation on records {@code from..to-1} of the shard. */
    interface Invoker {
        Outcome invoke(int from, int to);
    }

    /**
     * What an invocation reported: the record to retry from, whether the cursor refused the whole batch, and
     * whether it changed nothing at all (no write, no dead letter, no event).
     */
    record Outcome(Optional<String> failed, boolean refused, boolean idle) {
    }

    private final List<SourceRecord> records;
    private final Invoker invoker;
    private final Random random;
    private final RecordingPublisher publisher;
    private final Predicate<DomainEvent> alwaysRefused;
    private final boolean pastFailure;
    private final boolean crashes;
    private final FaultInterceptor faults;
    /** The most records an invocation takes: 30 unless {@link #batchesUpTo} says otherwise. */
    private int maxBatch = 30;
    private int largestBatch;
    private int position;
    /** Every record before it has been acknowledged once: applied, whatever later retries report. */
    private int highWater;
    private int invocations;
    private int refusalsInARow;
    /** When the refusals in a row began ({@link System#nanoTime}). */
    private long refusedSince;
    private Duration refusalLimit = MAX_REFUSAL;
    private int pastFailureDeliveries;
    private int pastFailureRefusals;
    /** The last invocations, for the message of a shard that makes no progress. */
    private final Deque<String> history = new ArrayDeque<>();

    Delivery(List<SourceRecord> records, Invoker invoker, Random random, RecordingPublisher publisher,
             Predicate<DomainEvent> alwaysRefused, boolean pastFailure, boolean crashes, FaultInterceptor faults) {
        this.records = records;
        this.invoker = invoker;
        this.random = random;
        this.publisher = publisher;
        this.alwaysRefused = alwaysRefused;
        this.pastFailure = pastFailure;
        this.crashes = crashes;
        this.faults = faults;
    }

    /**
     * Resumes at record {@code index}: every record before it counts as acknowledged (a consumer resuming from its
     * checkpoint).
     */
    Delivery startingAt(int index) {
        position = index;
        highWater = index;
        return this;
    }

    /**
     * Batches of up to {@code max} records (the mapping's BatchSize goes to 10,000): the first invocation and half of
     * the others then take {@code max} records, or what is left of the shard (a mapping that starts on a backlog fills
     * its batches), the others a random number up to it.
     */
    Delivery batchesUpTo(int max) {
        maxBatch = max;
        return this;
    }

    /** Refusals in a row for longer than {@code limit} fail the shard as stuck (by default {@link #MAX_REFUSAL}). */
    Delivery refusedForAtMost(Duration limit) {
        refusalLimit = limit;
        return this;
    }

    /** The most records one invocation held. */
    int largestBatch() {
        return largestBatch;
    }

    boolean done() {
        return position >= records.size();
    }

    int pastFailureDeliveries() {
        return pastFailureDeliveries;
    }

    int pastFailureRefusals() {
        return pastFailureRefusals;
    }

    void run() {
        while (!done()) {
            step();
        }
    }

    /** One invocation; until every record has been acknowledged. */
    void step() {
        if (invocations > MAX_INVOCATIONS || refusalsInARow > MAX_INVOCATIONS
                || refusalsInARow > 0 && System.nanoTime() - refusedSince > refusalLimit.toNanos()) {
            throw new AssertionError("no progress after " + invocations + " invocations (" + refusalsInARow
                    + " refused in a row, over " + (refusalsInARow == 0 ? 0
                    : Duration.ofNanos(System.nanoTime() - refusedSince).toSeconds()) + " s) at record " + position + " of " + records.size()
                    + "; the invocations before the refusals, oldest first:\n" + String.join("\n", history));
        }
        int end = Math.min(records.size(), position + batchSize());
        boolean crash = crashes && random.nextInt(8) == 0;
        double refusal = random.nextInt(6) == 0 ? 0.3 : 0;
        Random eventDice = new Random(random.nextLong());
        publisher.refuse(event -> alwaysRefused.test(event) || eventDice.nextDouble() < refusal);
        Optional<Outcome> outcome = invoke(position, end, crash ? random.nextInt(Math.max(1, end - position)) : -1);
        if (outcome.isPresent() && outcome.get().refused()) {
            // The shard is held or must be retried from an earlier record: the mapping retries after a pause (a
            // crashed invocation's lease lapses only at its deadline).
            assertThat(outcome.get().failed()).contains(records.get(position).sequenceNumber());
            if (refusalsInARow++ == 0) {
                refusedSince = System.nanoTime();
            }
            LockSupport.parkNanos(5_000_000);
            return;
        }
        invocations++;
        refusalsInARow = 0;
        if (outcome.isEmpty()) {
            // A function error, or the invocation died mid-way: the mapping delivers the batch again.
            return;
        }
        Optional<String> failed = outcome.get().failed();
        if (failed.isPresent()) {
            int at = indexOf(failed.get());
            assertThat(at).isBetween(position, end - 1);
            highWater = Math.max(highWater, at);
            if (pastFailure && at + 1 < records.size() && random.nextBoolean()) {
                deliverPast(at);
            }
            // The mapping restarts at the reported record; a sloppier one restarts anywhere before it.
            position = random.nextInt(4) == 0 ? random.nextInt(at + 1) : at;
            return;
        }
        if (random.nextInt(5) == 0) {
            // A duplicate delivery of an acknowledged range, with boundaries of its own; whatever it reports is moot.
            int from = random.nextInt(end);
            invoke(from, Math.min(end, from + batchSize()), -1);
        }
        position = end;
        highWater = Math.max(highWater, end);
    }

    /**
     * A batch that starts after the failure point before the failed record is applied again: a second consumer
     * on the shard, or a redelivery out of order. The cursor must refuse it; without the guard its writes move the
     * watermarks past the failed record, which is then refused as applied: lost.
     */
    private void deliverPast(int failedAt) {
        if (failedAt < highWater) {
            return;
        }
        int from = failedAt + 1 + random.nextInt(records.size() - failedAt - 1);
        Optional<Outcome> past = invoke(from, Math.min(records.size(), from + batchSize()), -1);
        pastFailureDeliveries++;
        // Refused unless the failed record turns out to have been applied before (a release that committed but was
        // reported failed moved the shard's acknowledged record past it); either way the end state must be exact.
        if (past.isPresent() && (past.get().refused() || past.get().idle())) {
            pastFailureRefusals++;
        }
    }

    /** The records of the next batch; the default's draws are those of the seeds run before large batches existed. */
    private int batchSize() {
        if (maxBatch > 30 && (invocations == 0 || random.nextBoolean())) {
            return maxBatch;
        }
        return 1 + random.nextInt(maxBatch);
    }

    /** Empty when the invocation threw or crashed: its outcome is lost. */
    private Optional<Outcome> invoke(int from, int to, int crashAfter) {
        largestBatch = Math.max(largestBatch, to - from);
        faults.crashAfter(crashAfter);
        String how = "crashed";
        try {
            Outcome outcome = invoker.invoke(from, to);
            how = faults.crashed() ? "crashed after " + crashAfter + " calls" : outcome.toString();
            return faults.crashed() ? Optional.empty() : Optional.of(outcome);
        } catch (RuntimeException e) {
            how = "threw " + e;
            return Optional.empty();
        } finally {
            remember(from, to, crashAfter, how);
            faults.crashAfter(-1);
            faults.resetCrash();
        }
    }

    /**
     * Keeps the last invocations but refusals in a row (those repeat one line): records {@code from..to-1} by
     * sequence, and how the invocation ended.
     */
    private void remember(int from, int to, int crashAfter, String how) {
        if (refusalsInARow > 1) {
            return;
        }
        history.addLast("records " + from + ".." + (to - 1) + " (sequences " + records.get(from).sequenceNumber()
                + ".." + records.get(to - 1).sequenceNumber() + ")" + (crashAfter >= 0 ? ", crash set at call "
                + crashAfter : "") + ": " + how);
        if (history.size() > 40) {
            history.removeFirst();
        }
    }

    private int indexOf(String sequenceNumber) {
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).sequenceNumber().equals(sequenceNumber)) {
                return i;
            }
        }
        throw new AssertionError("reported sequence number " + sequenceNumber + " is not in the shard");
    }
}
