package io.tally.core.view;

import io.tally.core.Ids;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Where a view counts an entity: whether its filter admits it, its group (one or more fields, each an id) and, for a
 * view per time bucket, the bucket of an instant of it. The subject of the item it counts in is the group's ids joined
 * with '#' ({@code <group>}, {@code <org>#<team>}), then {@code #<bucket>} for a view with buckets: '#' is in no id
 * ({@link Ids}), so a subject splits back into its parts.
 *
 * @param typeName        the view's derived type, to name in a problem
 * @param groups          the answer's components that hold the group's ids, in the order of the subject
 * @param groupOfs        the entity's fields of those ids, in the same order
 * @param bucket          null for a view without buckets (and so {@code bucketComponent} and {@code bucketOf})
 */
record Grouping<T>(String typeName, List<String> groups, List<Function<T, String>> groupOfs, Predicate<T> where,
                   Bucket bucket, String bucketComponent, Function<T, Instant> bucketOf) {
    Grouping {
        groups = List.copyOf(groups);
        groupOfs = List.copyOf(groupOfs);
        if (groups.isEmpty() || groups.size() != groupOfs.size()) {
            throw new IllegalArgumentException(typeName + ": a group of " + groups.size() + " components and "
                    + groupOfs.size() + " fields");
        }
    }

    /** A grouping by one field. */
    static <T> Grouping<T> of(String typeName, String group, Function<T, String> groupOf, Predicate<T> where,
                              Bucket bucket, String bucketComponent, Function<T, Instant> bucketOf) {
        return new Grouping<>(typeName, List.of(group), List.of(groupOf), where, bucket, bucketComponent, bucketOf);
    }

    /**
     * The subject of the item an entity counts in, or empty when the filter leaves it out.
     *
     * @throws IllegalArgumentException when a field of the entity's group is not a valid id (null, empty, or a
     *                                  character ids may not hold) or its instant is missing: its change is then a
     *                                  problem, and the record a dead letter
     */
    Optional<String> subjectOf(T entity) {
        if (!where.test(entity)) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            String id = groupOfs.get(i).apply(entity);
            if (!Ids.isValid(id)) {
                throw new IllegalArgumentException(typeName + ": the group " + groups.get(i) + " of the entity is not"
                        + " a valid id: " + (id == null ? "null" : "'" + id + "'"));
            }
            ids.add(id);
        }
        String group = String.join("#", ids);
        if (bucket == null) {
            return Optional.of(group);
        }
        Instant at = bucketOf.apply(entity);
        if (at == null) {
            throw new IllegalArgumentException(typeName + ": the instant of the bucket " + bucketComponent
                    + " of the entity is null");
        }
        return Optional.of(group + "#" + bucket.of(at));
    }

    /** The subject of a group's ids and its bucket (null without buckets). */
    String subject(List<String> ids, String bucketValue) {
        if (ids.size() != groups.size()) {
            throw new IllegalArgumentException(typeName + " is grouped by " + groups + ", not by " + ids.size()
                    + " ids");
        }
        String group = String.join("#", ids);
        return bucket == null ? group : group + "#" + bucketValue;
    }

    /** The group's part of a subject: its ids joined with '#'. */
    String groupOf(String subject) {
        return bucket == null ? subject : subject.substring(0, separator(subject));
    }

    /** The group's ids of a subject, in the order of {@link #groups}. */
    List<String> idsOf(String subject) {
        List<String> ids = Arrays.asList(groupOf(subject).split("#", -1));
        if (ids.size() != groups.size()) {
            throw new IllegalArgumentException(typeName + " is keyed by " + groups + ", not by " + subject);
        }
        return ids;
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
