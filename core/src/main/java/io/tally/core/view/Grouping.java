package io.tally.core.view;

import io.tally.core.Ids;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Where a view counts an entity: whether its filter admits it, its group (a field that must be an id) and, for a view
 * per time bucket, the bucket of an instant of it. The subject of the item it counts in is {@code <group>} or
 * {@code <group>#<bucket>}: '#' is in no id ({@link Ids}).
 *
 * @param typeName        the view's derived type, to name in a problem
 * @param bucket          null for a view without buckets (and so {@code bucketComponent} and {@code bucketOf})
 */
record Grouping<T>(String typeName, String group, Function<T, String> groupOf, Predicate<T> where, Bucket bucket,
                   String bucketComponent, Function<T, Instant> bucketOf) {
    /**
     * The subject of the item an entity counts in, or empty when the filter leaves it out.
     *
     * @throws IllegalArgumentException when the entity's group is not a valid id (null, empty, or a character ids may
     *                                  not hold) or its instant is missing: its change is then a problem, and the
     *                                  record a dead letter
     */
    Optional<String> subjectOf(T entity) {
        if (!where.test(entity)) {
            return Optional.empty();
        }
        String id = groupOf.apply(entity);
        if (!Ids.isValid(id)) {
            throw new IllegalArgumentException(typeName + ": the group " + group + " of the entity is not a valid"
                    + " id: " + (id == null ? "null" : "'" + id + "'"));
        }
        if (bucket == null) {
            return Optional.of(id);
        }
        Instant at = bucketOf.apply(entity);
        if (at == null) {
            throw new IllegalArgumentException(typeName + ": the instant of the bucket " + bucketComponent
                    + " of the entity is null");
        }
        return Optional.of(id + "#" + bucket.of(at));
    }

    /** The group's id of a subject. */
    String groupOf(String subject) {
        return bucket == null ? subject : subject.substring(0, separator(subject));
    }

    /** The bucket of a subject; null without buckets. */
    String bucketOf(String subject) {
        return bucket == null ? null : subject.substring(separator(subject) + 1);
    }

    private int separator(String subject) {
        int at = subject.lastIndexOf('#');
        if (at < 0) {
            throw new IllegalArgumentException(typeName + " is keyed by a group and a " + bucket + " bucket,"
                    + " <group>#<bucket>, not " + subject);
        }
        return at;
    }
}
