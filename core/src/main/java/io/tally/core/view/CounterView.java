package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.derive.Contribution;
import io.tally.core.http.Access;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * A figure of a domain declared as data: counts and sums of the entities of one type, grouped by one of their fields,
 * optionally only of those a filter admits, and an average of a field (its sum and the count kept, the mean read). The
 * view compiles to what a hand-written domain would write: a {@link DerivedType} whose counters are the figures, its
 * part of the entity type's derivation ({@link #contribute}), and, if it says so, its read route
 * ({@link ViewRoutes}).
 *
 * <p>The figures are named by a record, the view's <b>answer</b>: the JSON its route answers, one component per
 * figure, plus the group's id. {@code ItemReviews(String itemId, long reviews, Double averageStars)} names the group
 * {@code itemId}, the count {@code reviews} (stored under that name), and the average {@code averageStars} (stored as
 * the sum it is read from, under the name the view gives, and the view's count).
 *
 * <p>Exactly once as every derivation is: an entity counts by what its state contributes, so a change is the
 * difference of two states. A move to another group (a review's item changed) uncounts it from the old group and
 * counts it in the new; a change that takes it out of the filter uncounts it; a delete uncounts it.
 *
 * <pre>{@code
 * static final CounterView<Review, ItemReviews> PER_ITEM = CounterView.over(Review.SCHEMA, ItemReviews.class)
 *         .key("REVIEWS#<itemId> / #STATS#", itemId -> new Key("REVIEWS#" + itemId, "#STATS#"))
 *         .groupBy(ItemReviews::itemId, Review::itemId)
 *         .count(ItemReviews::reviews)
 *         .average(ItemReviews::averageStars, Review::stars, "stars")
 *         .shared()
 *         .read("/stats/items/{itemId}/reviews", Access.READ_SIDE, Existence.of(CATALOGUE_ITEM, "catalogue item"))
 *         .build();
 * }</pre>
 *
 * @param <T> the entity counted
 * @param <R> the answer: the figures' names and the route's JSON
 */
public final class CounterView<T extends Record, R extends Record> implements View<T> {
    private final ItemSchema<T> source;
    private final Class<R> answer;
    private final DerivedType type;
    private final String group;
    private final Map<String, ToLongFunction<T>> counters;
    private final String count;
    private final Average average;
    private final Read read;
    private final Bucket bucket;
    private final String bucketComponent;
    private final java.lang.reflect.Constructor<R> canonical;
    private final Grouping<T> grouping;

    CounterView(CounterViewBuilder<T, R> builder) {
        this.source = builder.source;
        this.answer = builder.answer;
        this.group = builder.group;
        this.counters = Map.copyOf(builder.counters);
        this.count = builder.count;
        this.average = builder.average;
        this.read = builder.read;
        this.bucket = builder.bucket;
        this.bucketComponent = builder.bucketComponent;
        this.grouping = new Grouping<>(builder.name, group, builder.groupOf, builder.where, bucket,
                bucketComponent, builder.bucketOf);
        DerivedType.Builder type = DerivedType.named(builder.name)
                .key(builder.keyPattern, builder.keyOf)
                .counters(builder.counters.keySet().toArray(String[]::new));
        if (builder.shared) {
            type.shared();
        }
        this.type = type.build();
        try {
            this.canonical = answer.getDeclaredConstructor(java.util.Arrays.stream(answer.getRecordComponents())
                    .map(RecordComponent::getType).toArray(Class<?>[]::new));
            // A domain's answer record need not be public (as Jackson, which writes it, does not ask either).
            canonical.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make the answer " + answer.getName() + ": " + e, e);
        }
        // An answer that cannot be made (a component no figure fills as its type asks) fails here, not on a request.
        answer("declared", bucket == null ? null : bucket.of(java.time.Instant.EPOCH), Map.of());
    }

    /** A view of the entities {@code source} reads, whose figures {@code answer} names. */
    public static <T extends Record, R extends Record> CounterViewBuilder<T, R> over(ItemSchema<T> source,
                                                                                 Class<R> answer) {
        return new CounterViewBuilder<>(source, answer);
    }

    @Override
    public ItemSchema<T> schema() {
        return source;
    }

    @Override
    public List<DerivedType> types() {
        return List.of(type);
    }

    /** The derived type the view keeps its figures in: one item per group (per group and bucket, with a bucket). */
    public DerivedType type() {
        return type;
    }

    public Class<R> answer() {
        return answer;
    }

    /** The answer's component that holds the group's id, which is also the read route's path parameter. */
    public String group() {
        return group;
    }

    /**
     * The subject of the item an entity counts in (its group's id, and {@code #<bucket>} for a view with a bucket), or
     * empty when the filter leaves it out.
     *
     * @throws IllegalArgumentException when the entity's group is not a valid id (null, empty, or a character ids may
     *                                  not hold): its change is then a problem, and the record a dead letter
     */
    public Optional<String> subjectOf(T entity) {
        return grouping.subjectOf(entity);
    }

    /** The view's time bucket, if it counts per bucket, and the answer's component that holds it. */
    public Optional<Bucket> bucket() {
        return Optional.ofNullable(bucket);
    }

    /** The answer's component that holds the bucket, or null without a bucket. */
    public String bucketComponent() {
        return bucketComponent;
    }

    /** The stored counters and what one entity adds to each: 1 for a count, the field for a sum. */
    public Map<String, ToLongFunction<T>> counters() {
        return counters;
    }

    /** The route that reads the figures, if the view declares one. */
    public Optional<Read> read() {
        return Optional.ofNullable(read);
    }

    @Override
    public void contribute(T entity, Contribution.Builder into) {
        subjectOf(entity).ifPresent(id -> counters.forEach((name, amount) -> into.count(type, id, name,
                amount.applyAsLong(entity))));
    }

    /**
     * The answer for a group from its stored counters (a counter not stored is 0): the group's id, each counted
     * figure, and each average as {@link Average#mean}.
     */
    public R answer(String groupId, Map<String, Long> stored) {
        return answer(groupId, null, stored);
    }

    /** The answer for a group's bucket (null for a view without buckets) from its stored counters. */
    public R answer(String groupId, String bucketValue, Map<String, Long> stored) {
        RecordComponent[] components = answer.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            if (name.equals(group)) {
                values[i] = groupId;
            } else if (name.equals(bucketComponent)) {
                values[i] = bucketValue;
            } else if (average != null && name.equals(average.component())) {
                values[i] = Average.mean(stored.getOrDefault(average.sum(), 0L), stored.getOrDefault(count, 0L));
            } else {
                values[i] = Numbers.of(components[i].getType(), stored.getOrDefault(name, 0L));
            }
        }
        try {
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot make the answer " + answer.getName() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return "view " + type.name() + " of " + source.entityType().attributeValue() + " by " + group;
    }

    /** How a view reads its figures: the route, who may call it, and what a group with no item answers. */
    public record Read(String path, Access access, Existence existence, String summary) {
        public Read {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(access, "access");
            Objects.requireNonNull(existence, "existence");
        }
    }

    /** A mean kept as a sum and the view's count. */
    record Average(String component, String sum) {
        /** The mean rounded half-up to 2 decimals (DOMAIN.md), or null when nothing is counted. */
        static Double mean(long sum, long count) {
            return count == 0 ? null : java.math.BigDecimal.valueOf(sum)
                    .divide(java.math.BigDecimal.valueOf(count), 2, java.math.RoundingMode.HALF_UP).doubleValue();
        }
    }
}
