package io.tally.stream.engine;

import io.tally.core.Key;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * Lets a shard move past a derived write that DynamoDB refuses for good (an item grown past 400 KB, a full item
 * collection), which would otherwise fail the shard at the same record until the stream's retention trims it and
 * everything after it. Once the batch's first failure has been the shard's pending record for the {@link GiveUp}'s
 * attempts and period, and every derived write failing there failed with an error no retry changes, each of those
 * writes is filed as a dead letter naming the derived item and the records it held, and no longer fails the batch:
 * the record's other writes, its events and the records after it go on. The item then lacks those records'
 * contributions until {@code verify --repair} recomputes it (a later redelivery of the range may also apply them;
 * either way the repair ends it equal to the recomputation).
 *
 * <p>The shard remembers the items it gave up on ({@link RefusedItems}, in its cursor): when every write failing at
 * the batch's first failure is refused for good and was to an item the shard gave up on before, the writes are filed
 * at once, without waiting for the attempts and the period again. Failures are taken in record order, as long as
 * they can be filed, so a failure after one that must wait is left to the retry that starts there.
 *
 * <p>Throttling, server errors and missing permissions are never given up on: they clear, and the records must
 * then be applied.
 */
record WriteGiveUp(DeadLetterSink deadLetters, GiveUp giveUp, StreamMetrics metrics) {
    private static final Logger LOG = LoggerFactory.getLogger(WriteGiveUp.class);

    /** What {@link #fileRefusedForGood} filed: the derived items whose writes are now dead letters. */
    record Filed(List<Key> items) {
        static final Filed NONE = new Filed(List.of());

        int count() {
            return items.size();
        }
    }

    /**
     * Files the failed writes at the batch's first failure as dead letters when it is time to give them up, or at
     * once when the shard gave their items up before, then those at the next failure, and so on; removes those filed
     * from {@code failed}.
     *
     * @return the writes filed
     */
    Filed fileRefusedForGood(List<KeyWriter.Outcome> failed, BatchPlan plan, ShardCursors.Progress before,
                             Instant now) {
        List<Key> filed = new ArrayList<>();
        while (true) {
            String first = null;
            for (KeyWriter.Outcome outcome : failed) {
                first = Futures.min(first, outcome.failedAt());
            }
            if (first == null) {
                break;
            }
            List<KeyWriter.Outcome> atFirst = new ArrayList<>();
            for (KeyWriter.Outcome outcome : failed) {
                if (outcome.failedAt().equals(first)) {
                    atFirst.add(outcome);
                }
            }
            SourceRecord record = plan.record(first);
            if (record == null || !atFirst.stream().allMatch(KeyWriter.Outcome::permanent)) {
                break;
            }
            boolean remembered = atFirst.stream().allMatch(outcome -> before.refused().contains(outcome.key()));
            if (!remembered && !giveUp.reached(before.pending(), first, now)) {
                break;
            }
            int attempts = GiveUp.attempt(before.pending(), first);
            boolean all = true;
            for (KeyWriter.Outcome outcome : atFirst) {
                String why = remembered ? "refused again (the shard gave the item up at "
                        + before.refused().since(outcome.key()) + "), filed at once" : "refused after " + attempts
                        + " attempts";
                if (file(record, outcome, why)) {
                    failed.remove(outcome);
                    filed.add(outcome.key());
                } else {
                    all = false;
                }
            }
            if (!all) {
                break;
            }
        }
        metrics.writesDeadLettered(filed.size());
        return filed.isEmpty() ? Filed.NONE : new Filed(List.copyOf(filed));
    }

    private boolean file(SourceRecord record, KeyWriter.Outcome outcome, String why) {
        List<String> unapplied = outcome.unapplied();
        String records = unapplied.size() == 1 ? "record " + unapplied.get(0)
                : unapplied.size() + " records from " + unapplied.get(0) + " to " + unapplied.get(unapplied.size() - 1);
        String reason = "derived write of " + outcome.key().pk() + " / " + outcome.key().sk() + " " + why + " ("
                + describe(outcome.error()) + "): the contributions of " + records
                + " (zero-padded sequence numbers of shard " + record.shardId() + ") are not applied to it; repair"
                + " with verify --repair";
        try {
            deadLetters.send(DeadLetter.ofDerivedWrite(record, outcome.key(), reason));
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("the refused derived write of {} could not be filed as a dead letter", outcome.key(), e);
            return false;
        }
        LOG.error("gave up the derived write of {} at record {} (shard {}, sequence {}): filed as a dead letter; {}",
                outcome.key(), record.eventId(), record.shardId(), record.sequenceNumber(), reason, outcome.error());
        return true;
    }

    private static String describe(RuntimeException error) {
        if (error instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            return service.awsErrorDetails().errorCode() + ": " + service.awsErrorDetails().errorMessage();
        }
        return error.toString();
    }
}
