package io.tally.local.stream;

/**
 * Where records go that the function could not process in time: the event source mapping's on-failure destination
 * (an SQS queue, SNS topic or S3 bucket on AWS). Giving up on records without sending them here would lose them
 * silently, so a destination that cannot take a batch throws, and the poller retries the send.
 */
@FunctionalInterface
public interface FailureDestination {
    void send(DiscardedBatch batch);
}
