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
 * A figure of a domain declared as data: counts and sums of the entities of one type, grouped by one or more of their
 * fields,
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
    private final List<String> groups;
    private final Map<String, ToLongFunction<T>> counters;
    private final Map<String, CounterFamily<T>> families;
    /** What the route reads: every counter and family of the view and its parts. */
    private final java.util.Set<String> stored;
    private final Map<String, CounterFamily<?>> storedFamilies;
    private final List<CounterView<?, R>> parts;
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
        this.groups = List.copyOf(builder.groups);
        this.counters = Map.copyOf(builder.counters);
        this.families = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(builder.families));
        this.count = builder.count;
        this.average = builder.average;
        this.read = builder.read;
        this.bucket = builder.bucket;
        this.bucketComponent = builder.bucketComponent;
        this.grouping = new Grouping<>(builder.name, groups, builder.groupOfs, builder.where, bucket,
                bucketComponent, builder.bucketOf);
        this.stored = java.util.Collections.unmodifiableSet(CounterViewParts.counters(builder));
        this.storedFamilies = java.util.Collections.unmodifiableMap(CounterViewParts.families(builder));
        if (builder.given != null) {
            // A part of another view: it counts into that view's type, and reads nothing.
            this.type = builder.given;
            this.parts = List.of();
            this.canonical = null;
            return;
        }
        DerivedType.Builder type = DerivedType.named(builder.name)
                .key(builder.keyPattern, builder.keyOf)
                .counters(stored.toArray(String[]::new));
        storedFamilies.values().forEach(family -> type.counterFamily(family.prefix()));
        if (builder.shared) {
            type.shared();
        }
        this.type = type.build();
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<CounterView<?, R>> built = (List) CounterViewParts.build(builder, this.type);
        this.parts = built;
        try {
            this.canonical = answer.getDeclaredConstructor(java.util.Arrays.stream(answer.getRecordComponents())
                    .map(RecordComponent::getType).toArray(Class<?>[]::new));
            // A domain's answer record need not be public (as Jackson, which writes it, does not ask either).
            canonical.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make the answer " + answer.getName() + ": " + e, e);
        }
        // An answer that cannot be made (a component no figure fills as its type asks) fails here, not on a request.
        answer(java.util.Collections.nCopies(groups.size(), "declared"), bucket == null ? null
                : bucket.of(java.time.Instant.EPOCH), Map.of());
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

    /** The view's derived type; none for a part of another view ({@link #parts}), which counts into that one's. */
    @Override
    public List<DerivedType> types() {
        return canonical == null ? List.of() : List.of(type);
    }

    /**
     * The views that count other entity types into this view's items ({@link CounterViewBuilder#alsoFrom}): each a
     * view of its own entity type, with no type or route of its own.
     */
    public List<CounterView<?, R>> parts() {
        return parts;
    }

    /** The derived type the view keeps its figures in: one item per group (per group and bucket, with a bucket). */
    public DerivedType type() {
        return type;
    }

    public Class<R> answer() {
        return answer;
    }

    /**
     * The answer's components that hold the group's ids, in the order the view was grouped: also the read route's path
     * parameters.
     */
    public List<String> groups() {
        return groups;
    }

    /** The subject of the item of a group's ids (in the order of {@link #groups}) and bucket (null without buckets). */
    public String subject(List<String> groupIds, String bucketValue) {
        return grouping.subject(groupIds, bucketValue);
    }

    /**
     * The subject of the item an entity counts in (its group's ids joined with '#', and {@code #<bucket>} for a view
     * with a bucket), or empty when the filter leaves it out.
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

    /** The counter families ({@code countPer}), by the answer's component that holds each one's map. */
    public Map<String, CounterFamily<T>> families() {
        return families;
    }

    /** The counters the view's route reads: its own and its parts'. */
    public java.util.Set<String> stored() {
        return stored;
    }

    /** Whether a stored counter is a figure of this view's route: a counter of it or its parts, or a family's. */
    public boolean isFigure(String name) {
        return stored.contains(name) || storedFamilies.values().stream().anyMatch(family -> family.holds(name));
    }

    /** The route that reads the figures, if the view declares one. */
    public Optional<Read> read() {
        return Optional.ofNullable(read);
    }

    @Override
    public void contribute(T entity, Contribution.Builder into) {
        subjectOf(entity).ifPresent(id -> {
            counters.forEach((name, amount) -> into.count(type, id, name, amount.applyAsLong(entity)));
            families.values().forEach(family -> into.count(type, id, family.counter(type.name(), entity), 1));
        });
    }

    /**
     * The answer for a group of one field from its stored counters (a counter not stored is 0): the group's id, each
     * counted figure, and each average as {@link Average#mean}.
     */
    public R answer(String groupId, Map<String, Long> stored) {
        return answer(List.of(groupId), null, stored);
    }

    /** The answer for a group of one field's bucket (null for a view without buckets) from its stored counters. */
    public R answer(String groupId, String bucketValue, Map<String, Long> stored) {
        return answer(List.of(groupId), bucketValue, stored);
    }

    /**
     * The answer for a group's bucket (null for a view without buckets) from its stored counters.
     *
     * @param groupIds the group's ids, in the order of {@link #groups}
     */
    public R answer(List<String> groupIds, String bucketValue, Map<String, Long> stored) {
        if (groupIds.size() != groups.size()) {
            throw new IllegalArgumentException(type.name() + " is grouped by " + groups + ", not by " + groupIds);
        }
        RecordComponent[] components = answer.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            if (groups.contains(name)) {
                values[i] = groupIds.get(groups.indexOf(name));
            } else if (name.equals(bucketComponent)) {
                values[i] = bucketValue;
            } else if (storedFamilies.containsKey(name)) {
                values[i] = storedFamilies.get(name).read(stored);
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
        return "view " + type.name() + " of " + source.entityType().attributeValue() + " by "
                + String.join(" and ", groups);
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
