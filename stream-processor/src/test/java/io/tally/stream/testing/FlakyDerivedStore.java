package io.tally.stream.testing;

import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.stream.engine.DerivedStore;
import io.tally.stream.engine.DerivedWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/** A store in front of another that records every write and throttles the keys a test names. */
public final class FlakyDerivedStore implements DerivedStore {
    private final DerivedStore delegate;
    private final Map<Key, Predicate<DerivedWrite>> throttled = new ConcurrentHashMap<>();
    private final Map<Key, Boolean> refused = new ConcurrentHashMap<>();
    private final List<DerivedWrite> writes = new ArrayList<>();

    public FlakyDerivedStore(DerivedStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public Outcome apply(DerivedWrite write) {
        synchronized (writes) {
            writes.add(write);
        }
        if (refused.containsKey(PartialKeys.baseOf(write.key()))) {
            // What DynamoDB answers for an item grown past 400 KB: no retry changes it.
            throw DynamoDbException.builder().statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException")
                            .errorMessage("Item size has exceeded the maximum allowed size").build())
                    .build();
        }
        if (throttled.getOrDefault(PartialKeys.baseOf(write.key()), w -> false).test(write)) {
            // What the SDK throws once its own retries are spent.
            throw ProvisionedThroughputExceededException.builder().message("throttled: " + write.key()).build();
        }
        return delegate.apply(write);
    }

    public void throttle(Key key) {
        throttle(key, write -> true);
    }

    /** Throttles the writes of {@code key} that match, e.g. only those made after a refusal. */
    public void throttle(Key key, Predicate<DerivedWrite> when) {
        throttled.put(key, when);
    }

    /** Refuses every write of {@code key} as DynamoDB refuses an item over 400 KB. */
    public void refuseForGood(Key key) {
        refused.put(key, true);
    }

    public void heal() {
        throttled.clear();
        refused.clear();
    }

    public List<DerivedWrite> writes() {
        synchronized (writes) {
            return List.copyOf(writes);
        }
    }

    public void clearWrites() {
        synchronized (writes) {
            writes.clear();
        }
    }
}
