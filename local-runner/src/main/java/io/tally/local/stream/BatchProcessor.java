package io.tally.local.stream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * What the event source mapping does with one batch of a shard until every record of it is either processed or sent
 * to the on-failure destination: invoke, retry, bisect, honour {@code batchItemFailures}, give up on records that are
 * too old or failed too often. Reads nothing from the stream, so that these rules can be tested without one.
 *
 * <p>Retries count per record: a part of a batch (a half after bisecting, the rest after a partial failure) carries
 * the count of the batch it came from, so every retry of a record counts toward {@code MaximumRetryAttempts} and
 * {@code approximateInvokeCount} is the number of invocations the discarded records were part of.
 */
final class BatchProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(BatchProcessor.class);
    private static final String UNHANDLED = "Unhandled";

    /** The shard worker's side: its checkpoint, and waiting that ends early when the poller stops. */
    interface Shard {
        /** Every record up to and including {@code last} is processed. */
        void checkpoint(Record last);

        /** Waits; false if the poller is stopping (then nothing more should be done). */
        boolean pause(Duration duration);

        boolean stopping();
    }

    /** Records still to deliver, with what happened to them so far. */
    private record Attempt(List<Record> records, int failures, int invocations, String functionError,
            String errorMessage) {
    }

    private final String shardId;
    private final String streamArn;
    private final String functionArn;
    private final EsmSettings settings;
    private final BatchInvoker invoker;
    private final FailureDestination destination;
    private final Clock clock;
    private final Backoff backoff;
    private final PollerMetrics metrics;
    private final AtomicBoolean warnedIgnoredFailures;

    BatchProcessor(String shardId, String streamArn, String functionArn, EsmSettings settings, BatchInvoker invoker,
            FailureDestination destination, Clock clock, Backoff backoff, PollerMetrics metrics,
            AtomicBoolean warnedIgnoredFailures) {
        this.shardId = shardId;
        this.streamArn = streamArn;
        this.functionArn = functionArn;
        this.settings = settings;
        this.invoker = invoker;
        this.destination = destination;
        this.clock = clock;
        this.backoff = backoff;
        this.metrics = metrics;
        this.warnedIgnoredFailures = warnedIgnoredFailures;
    }

    /**
     * Delivers the batch until each record is processed or discarded, checkpointing as it goes.
     *
     * @return false if the poller stopped first; records not checkpointed are then delivered again by the next run
     */
    boolean process(List<Record> batch, Shard shard) {
        Deque<Attempt> pending = new ArrayDeque<>();
        pending.add(new Attempt(List.copyOf(batch), 0, 0, null, null));
        while (!pending.isEmpty()) {
            if (shard.stopping()) {
                return false;
            }
            Attempt attempt = pending.removeFirst();
            if (attempt.failures() > 0 && !shard.pause(backoff.delay(attempt.failures()))) {
                return false;
            }
            attempt = withoutExpiredRecords(attempt, shard);
            if (attempt == null) {
                return false;
            }
            if (attempt.records().isEmpty()) {
                continue;
            }
            if (!invoke(attempt, pending, shard)) {
                return false;
            }
        }
        return true;
    }

    /** Sends the leading records older than MaximumRecordAgeInSeconds away; null if the poller stopped meanwhile. */
    private Attempt withoutExpiredRecords(Attempt attempt, Shard shard) {
        if (!settings.limitsRecordAge()) {
            return attempt;
        }
        Instant oldestAllowed = clock.instant().minusSeconds(settings.maximumRecordAgeInSeconds());
        List<Record> records = attempt.records();
        int expired = 0;
        // A shard's records are in the order they were written, so the expired ones come first.
        while (expired < records.size() && createdAt(records.get(expired)).isBefore(oldestAllowed)) {
            expired++;
        }
        if (expired == 0) {
            return attempt;
        }
        if (!discard(new Attempt(records.subList(0, expired), attempt.failures(), attempt.invocations(),
                attempt.functionError(), attempt.errorMessage()), DiscardedBatch.Condition.RECORD_AGE_EXCEEDED, shard)) {
            return null;
        }
        return new Attempt(records.subList(expired, records.size()), attempt.failures(), attempt.invocations(),
                attempt.functionError(), attempt.errorMessage());
    }

    /** One invocation and what follows from its result; false if the poller stopped before it was dealt with. */
    private boolean invoke(Attempt attempt, Deque<Attempt> pending, Shard shard) {
        List<Record> records = attempt.records();
        metrics.invoked(records.size(), attempt.failures() > 0);
        InvocationResult result = invokeSafely(records);
        int invocations = attempt.invocations() + 1;
        if (result.isSuccess()) {
            processed(records, records.size(), shard);
            return true;
        }
        String failure = null;
        if (result.functionError().isEmpty()) {
            if (!settings.reportBatchItemFailures()) {
                if (warnedIgnoredFailures.compareAndSet(false, true)) {
                    LOG.warn("the function reports batchItemFailures, but ReportBatchItemFailures is off, so they are "
                            + "ignored and the batch counts as processed, as on AWS");
                }
                processed(records, records.size(), shard);
                return true;
            }
            int failedAt = result.lowestFailedIndex(records);
            if (failedAt >= 0) {
                if (failedAt > 0) {
                    processed(records, failedAt, shard);
                }
                LOG.warn("shard {}: the function reported record {} as failed; {} records before it are processed",
                        shardId, sequenceNumber(records.get(failedAt)), failedAt);
                // As on AWS: no bisecting here; the retry starts at the failed record.
                Attempt rest = new Attempt(records.subList(failedAt, records.size()), attempt.failures() + 1,
                        invocations, null, "the function reported record "
                        + sequenceNumber(records.get(failedAt)) + " as failed (batchItemFailures)");
                return retryOrDiscard(rest, pending, shard, false);
            }
            failure = "batchItemFailures name " + describeInvalid(result.batchItemFailures(), records)
                    + ", so the whole batch counts as failed";
        }
        String message = result.functionError().map(Throwable::toString).orElse(failure);
        if (attempt.failures() == 0 && result.functionError().isPresent()) {
            LOG.warn("shard {}: the function failed on {} records ({}..{})", shardId, records.size(),
                    sequenceNumber(records.get(0)), sequenceNumber(records.get(records.size() - 1)),
                    result.functionError().get());
        } else {
            LOG.warn("shard {}: the function failed on {} records ({}..{}), attempt {}: {}", shardId, records.size(),
                    sequenceNumber(records.get(0)), sequenceNumber(records.get(records.size() - 1)), invocations,
                    message);
        }
        Attempt failed = new Attempt(records, attempt.failures() + 1, invocations, UNHANDLED, message);
        return retryOrDiscard(failed, pending, shard, settings.bisectBatchOnFunctionError());
    }

    private boolean retryOrDiscard(Attempt failed, Deque<Attempt> pending, Shard shard, boolean bisect) {
        if (settings.limitsRetries() && failed.failures() > settings.maximumRetryAttempts()) {
            return discard(failed, DiscardedBatch.Condition.RETRY_ATTEMPTS_EXHAUSTED, shard);
        }
        List<Record> records = failed.records();
        if (bisect && records.size() > 1) {
            int half = records.size() / 2;
            // The second half goes in first so that the first half is taken next: the shard stays in order.
            pending.addFirst(new Attempt(records.subList(half, records.size()), failed.failures(),
                    failed.invocations(), failed.functionError(), failed.errorMessage()));
            pending.addFirst(new Attempt(records.subList(0, half), failed.failures(), failed.invocations(),
                    failed.functionError(), failed.errorMessage()));
        } else {
            pending.addFirst(failed);
        }
        return true;
    }

    private InvocationResult invokeSafely(List<Record> records) {
        try {
            InvocationResult result = invoker.invoke(shardId, records);
            return result != null ? result
                    : InvocationResult.functionError(new IllegalStateException(invoker + " returned no result"));
        } catch (RuntimeException | Error e) {
            return InvocationResult.functionError(e);
        }
    }

    private void processed(List<Record> records, int count, Shard shard) {
        shard.checkpoint(records.get(count - 1));
        metrics.processed(count);
    }

    /** Sends the records to the destination, insisting until it takes them, then moves the checkpoint past them. */
    private boolean discard(Attempt attempt, DiscardedBatch.Condition condition, Shard shard) {
        List<Record> records = attempt.records();
        DiscardedBatch batch = new DiscardedBatch(condition, attempt.invocations(), functionArn, streamArn, shardId,
                records, clock.instant(), attempt.functionError(), attempt.errorMessage());
        for (int failures = 1; ; failures++) {
            try {
                destination.send(batch);
                break;
            } catch (RuntimeException e) {
                if (failures == 1) {
                    LOG.error("shard {}: cannot send {} discarded records to the on-failure destination {}; the shard "
                            + "waits until it can", shardId, records.size(), destination, e);
                }
                if (!shard.pause(backoff.delay(failures))) {
                    return false;
                }
            }
        }
        LOG.warn("shard {}: discarded {} records ({}..{}) to {}: {} after {} invocations{}", shardId, records.size(),
                batch.startSequenceNumber(), batch.endSequenceNumber(), destination, condition.awsName(),
                attempt.invocations(), attempt.errorMessage() == null ? "" : "; last error: " + attempt.errorMessage());
        shard.checkpoint(records.get(records.size() - 1));
        metrics.discarded(records.size());
        return true;
    }

    private static String describeInvalid(List<String> identifiers, List<Record> records) {
        Map<String, Integer> indexes = indexes(records);
        for (String identifier : identifiers) {
            if (identifier == null || identifier.isEmpty()) {
                return "an empty itemIdentifier";
            }
            if (!indexes.containsKey(identifier)) {
                return "itemIdentifier '" + identifier + "', not a sequence number of the batch";
            }
        }
        return "no valid itemIdentifier";
    }

    private static Map<String, Integer> indexes(List<Record> records) {
        Map<String, Integer> indexes = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            indexes.put(sequenceNumber(records.get(i)), i);
        }
        return indexes;
    }

    private Instant createdAt(Record record) {
        Instant created = record.dynamodb().approximateCreationDateTime();
        return created == null ? clock.instant() : created;
    }

    private static String sequenceNumber(Record record) {
        return record.dynamodb().sequenceNumber();
    }

    /** Exponential delays between retries, so that a failing dependency is not hammered. */
    record Backoff(Duration initial, Duration max) {
        static final Backoff NONE = new Backoff(Duration.ZERO, Duration.ZERO);

        Duration delay(int failures) {
            if (initial.isZero()) {
                return Duration.ZERO;
            }
            Duration delay = initial;
            for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
                delay = delay.multipliedBy(2);
            }
            return delay.compareTo(max) > 0 ? max : delay;
        }
    }
}
