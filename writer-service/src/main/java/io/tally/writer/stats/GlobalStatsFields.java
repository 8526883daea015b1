package io.tally.writer.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.DomainSchema;
import java.util.function.ToLongFunction;

/**
 * A domain's part of {@code GET /stats/global}. The totals item is shared, but the shape of each domain's figures
 * is the domain's own (the blog groups its post counts under {@code posts}), so each domain renders its part and
 * the shared route only puts the parts together, in the order of {@link io.tally.core.domains.Domains#ALL}.
 */
@FunctionalInterface
public interface GlobalStatsFields {
    /**
     * Adds the domain's fields to {@code json}.
     *
     * @param total a declared global counter of the domain, summed over every shard
     */
    void render(ObjectNode json, ToLongFunction<String> total);

    /** Each of the domain's global counters under its own name, in declaration order. */
    static GlobalStatsFields flat(DomainSchema domain) {
        return (json, total) -> domain.globalCounters().forEach(counter -> json.put(counter, total.applyAsLong(counter)));
    }
}
