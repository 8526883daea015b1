package io.tally.stream.engine;

import io.tally.core.logging.InvocationLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead letters of a batch's poisoned records (records a derivation could not read), filed on the engine's pool
 * beside the derived writes. A letter that cannot be filed fails its record: the stream must not move past it.
 */
record PoisonLetters(DeadLetterSink deadLetters, StreamMetrics metrics) {
    private static final Logger LOG = LoggerFactory.getLogger(PoisonLetters.class);

    /** A letter being filed. */
    record Pending(RecordChanges change, Future<?> future) {
    }

    /** Starts filing the letters of the plan's poisoned records. */
    List<Pending> start(BatchPlan plan, ExecutorService executor) {
        List<Pending> letters = new ArrayList<>();
        for (RecordChanges change : plan.poisoned()) {
            letters.add(new Pending(change, executor.submit(InvocationLog.carried(
                    () -> deadLetters.send(DeadLetter.of(change.record(), change.poisonReason()))))));
        }
        return letters;
    }

    /** Waits for every letter; returns the lower of {@code failed} and the first record whose letter failed. */
    String awaitAll(List<Pending> letters, String failed) {
        String first = failed;
        for (Pending letter : letters) {
            try {
                Futures.await(letter.future());
            } catch (RuntimeException e) {
                metrics.failure("dead-letter");
                LOG.warn("dead letter of sequence {} could not be filed", letter.change().record().sequenceNumber(), e);
                first = Futures.min(first, letter.change().paddedSequence());
            }
        }
        return first;
    }
}
