package io.tally.testkit;

import io.tally.core.Key;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A domain's part of {@link Workload}: it shares the workload's random source, its writes and its ids, and takes a
 * step when the workload hands it one.
 */
abstract class PartWorkload {
    protected final Random random;
    protected final Consumer<Map<String, AttributeValue>> put;
    protected final Consumer<Key> delete;
    protected final Supplier<String> ids;

    PartWorkload(Random random, Consumer<Map<String, AttributeValue>> put, Consumer<Key> delete, Supplier<String> ids) {
        this.random = random;
        this.put = put;
        this.delete = delete;
        this.ids = ids;
    }

    abstract void step(Instant now);

    /** A freed id now and then (so that a new item meets the stale dependants of an old one), else a new id. */
    protected String reuseOr(List<String> freed) {
        return !freed.isEmpty() && random.nextInt(3) == 0 ? freed.remove(random.nextInt(freed.size())) : ids.get();
    }

    protected <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
