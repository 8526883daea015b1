package io.tally.core.workload;

import io.tally.core.Key;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What most {@link WorkloadPart}s share: the context's random source, clock and writes, and ids of their own. */
public abstract class AbstractWorkloadPart implements WorkloadPart {
    protected final WorkloadContext context;
    protected final Random random;
    private final String idPrefix;
    private final int weight;
    private final boolean byDefault;

    /**
     * @param idPrefix  the prefix of the part's new ids, e.g. {@code o} for organisations
     * @param weight    its {@link #weight()}
     * @param byDefault its {@link #byDefault()}
     */
    protected AbstractWorkloadPart(WorkloadContext context, String idPrefix, int weight, boolean byDefault) {
        this.context = Objects.requireNonNull(context, "context");
        this.random = context.random();
        this.idPrefix = idPrefix;
        this.weight = weight;
        this.byDefault = byDefault;
    }

    @Override
    public final int weight() {
        return weight;
    }

    @Override
    public final boolean byDefault() {
        return byDefault;
    }

    protected Instant now() {
        return context.now();
    }

    protected void put(Map<String, AttributeValue> item) {
        context.put(item);
    }

    protected void delete(Key key) {
        context.delete(key);
    }

    /** A new id of the part. */
    protected String id() {
        return context.nextId(idPrefix);
    }

    /** A freed id now and then (so that a new item meets the stale dependants of an old one), else a new id. */
    protected String reuseOr(List<String> freed) {
        return !freed.isEmpty() && random.nextInt(3) == 0 ? freed.remove(random.nextInt(freed.size())) : id();
    }

    /** An element picked uniformly. */
    protected <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
