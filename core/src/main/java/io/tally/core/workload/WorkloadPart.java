package io.tally.core.workload;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A domain's part of the test kit's random workload ({@code io.tally.testkit.Workload}): a random but valid sequence of
 * the base-item writes its writers would make, built with its own mappers, so that the fault test, the benchmark and
 * any domain's tests exercise it without the HTTP front. One instance serves one workload, whose
 * {@link WorkloadContext} it is made with, and remembers what it wrote (ids to change or delete); the same seed gives
 * the same writes. {@link AbstractWorkloadPart} has what most parts share.
 */
public interface WorkloadPart {
    /** Its weight among the workload's parts: how often a step is its, against the others' weights. */
    int weight();

    /**
     * Whether a workload takes it unless asked otherwise. The seed domains that came after the blog and the catalogue
     * say no, so that a seed keeps giving the tests that predate them the same writes.
     */
    default boolean byDefault() {
        return true;
    }

    /** One random step: a few writes (a transaction is one write per item), or none when it finds nothing to do. */
    void step();

    /**
     * Whether the workload's poison may overwrite this item, which the part wrote, with an unreadable one of its type
     * (its next readable write repairs it). Not for an item whose readable state cannot win over its unreadable one,
     * e.g. a source of a document it shares with others at a fixed revision.
     */
    default boolean mayPoison(Map<String, AttributeValue> item) {
        return true;
    }
}
