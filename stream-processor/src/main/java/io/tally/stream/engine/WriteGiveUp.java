package io.tally.stream.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import org.slf4j.LoggerFactory;

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
 * <p>Throttling, server errors and missing permissions are never given up on: they clear, and the records must
 * then be applied.
 */
record WriteGiveUp(DeadLetterSink deadLetters, GiveUp giveUp, StreamMetrics metrics) {
    private static final Logger LOG = LoggerFactory.getLogger(WriteGiveUp.class);

    /**
     * Files the failed writes at the batch's first failure as dead letters when it is time to give them up, and
     * removes those filed from {@code failed}.
     *
     * @return the writes filed
     */
    int fileRefusedForGood(List<KeyWriter.Outcome> failed, BatchPlan plan, ShardCursors.Pending previous,
                           Instant now) {
        String first = null;
        for (KeyWriter.Outcome outcome : failed) {
            first = Futures.min(first, outcome.failedAt());
        }
        if (first == null) {
            return 0;
        }
        List<KeyWriter.Outcome> atFirst = new ArrayList<>();
        for (KeyWriter.Outcome outcome : failed) {
            if (outcome.failedAt().equals(first)) {
                atFirst.add(outcome);
            }
        }
        SourceRecord record = plan.record(first);
        if (record == null || !atFirst.stream().allMatch(KeyWriter.Outcome::permanent)
                || !giveUp.reached(previous, first, now)) {
            return 0;
        }
        int attempts = GiveUp.attempt(previous, first);
        int filed = 0;
        for (Iterator<KeyWriter.Outcome> it = failed.iterator(); it.hasNext(); ) {
            KeyWriter.Outcome outcome = it.next();
            if (atFirst.contains(outcome) && file(record, outcome, attempts)) {
                it.remove();
                filed++;
            }
        }
        metrics.writesDeadLettered(filed);
        return filed;
    }

    private boolean file(SourceRecord record, KeyWriter.Outcome outcome, int attempts) {
        List<String> unapplied = outcome.unapplied();
        String records = unapplied.size() == 1 ? "record " + unapplied.get(0)
                : unapplied.size() + " records from " + unapplied.get(0) + " to " + unapplied.get(unapplied.size() - 1);
        String reason = "derived write of " + outcome.key().pk() + " / " + outcome.key().sk() + " refused after "
                + attempts + " attempts (" + describe(outcome.error()) + "): the contributions of " + records
                + " (zero-padded sequence numbers of shard " + record.shardId() + ") are not applied to it; repair"
                + " with verify --repair";
        try {
            deadLetters.send(DeadLetter.ofDerivedWrite(record, outcome.key(), reason));
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("the refused derived write of {} could not be filed as a dead letter", outcome.key(), e);
            return false;
        }
        LOG.error("gave up the derived write of {} at record {} (shard {}, sequence {}) after {} attempts: filed as a"
                + " dead letter; {}", outcome.key(), record.eventId(), record.shardId(), record.sequenceNumber(),
                attempts, reason, outcome.error());
        return true;
    }

    private static String describe(RuntimeException error) {
        if (error instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            return service.awsErrorDetails().errorCode() + ": " + service.awsErrorDetails().errorMessage();
        }
        return error.toString();
    }
}
