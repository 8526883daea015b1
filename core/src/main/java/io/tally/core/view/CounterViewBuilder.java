package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.http.Access;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Declares a {@link CounterView}; {@link #build} checks it against its answer record: every component filled by a
 * figure or the group, counts and sums whole numbers, an average with the view's count, the route with the group's
 * parameter.
 */
public final class CounterViewBuilder<T extends Record, R extends Record> {
    final ItemSchema<T> source;
    final Class<R> answer;
    String name;
    String keyPattern;
    Function<String, Key> keyOf;
    java.util.function.BiFunction<String, String, Key> bucketKeyOf;
    Bucket bucket;
    String bucketComponent;
    Function<T, java.time.Instant> bucketOf;
    String group;
    Function<T, String> groupOf;
    Predicate<T> where = entity -> true;
    final Map<String, ToLongFunction<T>> counters = new LinkedHashMap<>();
    String count;
    CounterView.Average average;
    boolean shared;
    CounterView.Read read;

    CounterViewBuilder(ItemSchema<T> source, Class<R> answer) {
        this.source = Objects.requireNonNull(source, "the entities' schema is null: is the view declared in a class"
                + " that the entity's own class initialises from (a cycle of static fields)? Declare it in a class of"
                + " its own");
        this.answer = Objects.requireNonNull(answer, "answer");
        if (!answer.isRecord()) {
            throw new IllegalArgumentException("a view's answer is a record: " + answer.getName());
        }
        this.name = answer.getSimpleName();
    }

    /** The derived type's name (the items' {@code entityType}); by default the answer record's simple name. */
    public CounterViewBuilder<T, R> named(String typeName) {
        this.name = Objects.requireNonNull(typeName, "typeName");
        return this;
    }

    /** Where a group's item lives: its documented pattern and the key of a group's id. */
    public CounterViewBuilder<T, R> key(String pattern, Function<String, Key> keyOf) {
        this.keyPattern = Objects.requireNonNull(pattern, "pattern");
        this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
        return this;
    }

    /**
     * Where a group's item of a bucket lives, for a view with a {@link #bucket}: its documented pattern and the key of
     * a group's id and a bucket.
     */
    public CounterViewBuilder<T, R> key(String pattern, java.util.function.BiFunction<String, String, Key> keyOf) {
        this.keyPattern = Objects.requireNonNull(pattern, "pattern");
        this.bucketKeyOf = Objects.requireNonNull(keyOf, "keyOf");
        return this;
    }

    /**
     * Counts each group per time bucket of an instant of the entity ({@link Bucket}): one item per group and bucket,
     * the answer's {@code component} holding the bucket, which its read route takes as the query parameter of the
     * component's name (required; another form is 400 {@code bad_request}).
     */
    public CounterViewBuilder<T, R> bucket(Component<R, String> component, Bucket bucket,
                                           Function<T, java.time.Instant> at) {
        this.bucketComponent = own(component).getName();
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.bucketOf = Objects.requireNonNull(at, "at");
        return this;
    }

    /** Groups the entities by a field: the answer's component that holds the group's id, and the entity's field. */
    public CounterViewBuilder<T, R> groupBy(Component<R, String> component, Function<T, String> field) {
        this.group = own(component).getName();
        this.groupOf = Objects.requireNonNull(field, "field");
        return this;
    }

    /** Counts only the entities the filter admits; a change in or out of it counts up or down. */
    public CounterViewBuilder<T, R> where(Predicate<T> filter) {
        this.where = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /** Counts the entities: the component is the count, stored under its name. */
    public CounterViewBuilder<T, R> count(Component<R, ? extends Number> component) {
        if (count != null) {
            throw new IllegalArgumentException(answer.getSimpleName() + " counts twice: " + count + ", "
                    + own(component).getName());
        }
        count = counter(component);
        counters.put(count, entity -> 1L);
        return this;
    }

    /** Sums a whole-number field of the entities: the component is the sum, stored under its name. */
    public CounterViewBuilder<T, R> sum(Component<R, ? extends Number> component, ToLongFunction<T> field) {
        counters.put(counter(component), Objects.requireNonNull(field, "field"));
        return this;
    }

    /**
     * The mean of a whole-number field: the component is the mean (a {@code Double}, null while nothing is
     * counted), read from the field's sum, stored as {@code storedSum}, and the view's {@link #count}.
     */
    public CounterViewBuilder<T, R> average(Component<R, Double> component, ToLongFunction<T> field, String storedSum) {
        RecordComponent described = own(component);
        String mean = described.getName();
        if (described.getType() != Double.class) {
            throw new IllegalArgumentException(answer.getSimpleName() + "." + mean + " holds a mean, null while nothing"
                    + " is counted: a Double, not " + described.getType().getSimpleName());
        }
        if (counters.containsKey(storedSum) || storedSum.equals(mean) || !storedSum.matches("[a-z][A-Za-z0-9]*")) {
            throw new IllegalArgumentException("the stored sum of " + mean + " must be a new camelCase name: "
                    + storedSum);
        }
        average = new CounterView.Average(mean, storedSum);
        counters.put(storedSum, Objects.requireNonNull(field, "field"));
        return this;
    }

    /**
     * Keeps the figures in per-shard partials beside the item ({@link DerivedType.Builder#shared}): for groups whose
     * entities live in many partitions (an item's reviews are written in every reviewer's partition).
     */
    public CounterViewBuilder<T, R> shared() {
        this.shared = true;
        return this;
    }

    /** Declares the read route: {@code path} holds the group's component as its parameter. */
    public CounterViewBuilder<T, R> read(String path, Access access, Existence existence) {
        return read(path, access, existence, null);
    }

    /** Declares the read route, with its summary for the OpenAPI document. */
    public CounterViewBuilder<T, R> read(String path, Access access, Existence existence, String summary) {
        this.read = new CounterView.Read(path, access, existence, summary);
        return this;
    }

    public CounterView<T, R> build() {
        if (group == null) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view groups its entities (groupBy)");
        }
        if (counters.isEmpty()) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view counts or sums something");
        }
        if (average != null && count == null) {
            throw new IllegalStateException(answer.getSimpleName() + ": an average needs the view's count");
        }
        if ((keyOf != null && bucket != null) || (bucketKeyOf != null && bucket == null)) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view with a bucket is keyed by its group and"
                    + " its bucket, one without by its group");
        }
        String prefix = name.toUpperCase(java.util.Locale.ROOT);
        if (bucket != null) {
            if (bucketKeyOf == null) {
                keyPattern = prefix + "#<" + group + "> / " + bucket.prefix + "#<" + bucketComponent + ">";
                bucketKeyOf = (id, at) -> new Key(prefix + "#" + id, bucket.prefix + "#" + at);
            }
            // The subject joins the two with '#', which no id holds (Ids).
            java.util.function.BiFunction<String, String, Key> both = bucketKeyOf;
            Grouping<T> subjects = new Grouping<>(name, group, groupOf, where, bucket, bucketComponent, bucketOf);
            keyOf = subject -> both.apply(subjects.groupOf(subject), subjects.bucketOf(subject));
            // A key that ignores the bucket would sum every bucket into one item, and its route would label the sum
            // with whatever bucket was asked.
            if (both.apply("g", bucket.of(java.time.Instant.EPOCH)).equals(both.apply("g",
                    bucket.of(java.time.Instant.EPOCH.plus(java.time.Duration.ofDays(40)))))) {
                throw new IllegalStateException(answer.getSimpleName() + ": its key " + keyPattern
                        + " must differ by bucket");
            }
            if (bucketComponent.equals(group)) {
                throw new IllegalStateException(answer.getSimpleName()
                        + ": the group and the bucket are two components");
            }
        } else if (keyOf == null) {
            keyPattern = prefix + "#<" + group + "> / #STATS#";
            keyOf = id -> new Key(prefix + "#" + id, "#STATS#");
        }
        List<String> unfilled = new ArrayList<>();
        for (RecordComponent component : answer.getRecordComponents()) {
            String named = component.getName();
            if (!named.equals(group) && !named.equals(bucketComponent) && !counters.containsKey(named)
                    && (average == null || !named.equals(average.component()))) {
                unfilled.add(named);
            }
        }
        if (!unfilled.isEmpty()) {
            throw new IllegalStateException(answer.getSimpleName() + ": no figure of the view fills " + unfilled);
        }
        if (read != null) {
            List<String> parameters = io.tally.core.http.Router.parameters(read.path());
            // Another parameter would be read by no one, and an access rule on it would check nothing.
            if (!parameters.equals(List.of(group))) {
                throw new IllegalStateException(answer.getSimpleName() + ": the read route " + read.path()
                        + " must hold the group's parameter {" + group + "} and no other");
            }
        }
        return new CounterView<>(this);
    }

    private RecordComponent own(Component<R, ?> component) {
        RecordComponent described = Component.describe(component);
        if (described.getDeclaringRecord() != answer) {
            throw new IllegalArgumentException(described.getName() + " is a component of "
                    + described.getDeclaringRecord().getSimpleName() + ", not of " + answer.getSimpleName());
        }
        return described;
    }

    private String counter(Component<R, ? extends Number> component) {
        RecordComponent described = own(component);
        if (!Numbers.isWhole(described.getType())) {
            throw new IllegalArgumentException(answer.getSimpleName() + "." + described.getName()
                    + " holds a count or a sum: a long, not " + described.getType().getSimpleName());
        }
        if (counters.containsKey(described.getName())) {
            throw new IllegalArgumentException(answer.getSimpleName() + "." + described.getName()
                    + " is already a figure of the view");
        }
        return described.getName();
    }
}
