package io.tally.stream.testing;

import io.tally.core.Key;
import io.tally.stream.engine.DerivedStore;
import io.tally.stream.engine.DerivedWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/** A store in front of another that records every write and throttles the keys a test names. */
public final class FlakyDerivedStore implements DerivedStore {
    private final DerivedStore delegate;
    private final Map<Key, Predicate<DerivedWrite>> throttled = new ConcurrentHashMap<>();
    private final List<DerivedWrite> writes = new ArrayList<>();

    public FlakyDerivedStore(DerivedStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public Outcome apply(DerivedWrite write) {
        synchronized (writes) {
            writes.add(write);
        }
        if (throttled.getOrDefault(write.key(), w -> false).test(write)) {
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

    public void heal() {
        throttled.clear();
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
