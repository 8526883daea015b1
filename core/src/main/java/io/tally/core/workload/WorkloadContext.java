package io.tally.core.workload;

import io.tally.core.Key;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What a {@link WorkloadPart} writes with: the workload's random source, clock, ids, users and writes. */
public interface WorkloadContext {
    /** The workload's random source: every choice goes through it, so that a seed repeats the writes. */
    Random random();

    /** An index below {@code size}, uniform or with the workload's Zipf skew (early indexes hot). */
    int skewed(int size);

    /** The workload's clock: a little later at every step. */
    Instant now();

    /** A new id, unique in the workload, e.g. {@code p17} for the prefix {@code p}. */
    String nextId(String prefix);

    /** The users written so far, oldest first: the kernel's part adds to it. */
    List<String> users();

    /** An existing user's id, picked with the skew; the first two users are written on demand. */
    String user();

    /** Writes the item. */
    void put(Map<String, AttributeValue> item);

    /** Deletes the item at the key. */
    void delete(Key key);

    /** An element picked with the skew. */
    default <T> T pick(List<T> values) {
        return values.get(skewed(values.size()));
    }

    /** One of these ids, picked with the skew. */
    default String pick(String... values) {
        return pick(List.of(values));
    }

    /** An element picked uniformly. */
    default <T> T pickUniformly(List<T> values) {
        return values.get(random().nextInt(values.size()));
    }
}
