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
    final List<String> groups = new ArrayList<>();
    final List<Function<T, String>> groupOfs = new ArrayList<>();
    Predicate<T> where = entity -> true;
    final Map<String, ToLongFunction<T>> counters = new LinkedHashMap<>();
    /** The counter families, by the answer's component that holds each one's map. */
    final Map<String, CounterFamily<T>> families = new LinkedHashMap<>();
    String count;
    CounterView.Average average;
    boolean shared;
    CounterView.Read read;
    /** Other entity types' counts into the same items ({@link #alsoFrom}). */
    final List<CounterViewBuilder<?, R>> parts = new ArrayList<>();
    /** For a part: the view's derived type, which it counts into. */
    DerivedType given;

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

    /**
     * Where a group's item lives: its documented pattern and the key of a group's id (for a view grouped by several
     * fields, their ids joined with '#' in the order of {@link #groupBy}).
     */
    public CounterViewBuilder<T, R> key(String pattern, Function<String, Key> keyOf) {
        this.keyPattern = Objects.requireNonNull(pattern, "pattern");
        this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
        return this;
    }

    /**
     * Where a group's item lives, as a pattern that also makes its keys ({@link io.tally.core.KeyTemplate}): its
     * placeholders are the group's components, e.g. {@code REVIEWS#<itemId> / #STATS#}, checked when the view is built.
     */
    public CounterViewBuilder<T, R> key(String pattern) {
        io.tally.core.KeyTemplate template = io.tally.core.KeyTemplate.of(pattern);
        return key(pattern, subject -> {
            String[] ids = subject.split("#", -1);
            if (!template.names().equals(new java.util.LinkedHashSet<>(groups)) || ids.length != groups.size()) {
                throw new IllegalStateException(answer.getSimpleName() + ": the placeholders of its key " + pattern
                        + " are its group's components " + groups);
            }
            return template.key(name -> ids[groups.indexOf(name)]);
        });
    }

    /**
     * Where a group's item of a bucket lives, for a view with a {@link #bucket}: its documented pattern and the key of
     * a group's id (ids joined with '#' for several fields) and a bucket.
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

    /**
     * Groups the entities by a field: the answer's component that holds the group's id, and the entity's field. Called
     * again, groups by one more field ({@code groupBy(TeamRoles::teamId, Member::teamId).groupBy(TeamRoles::role,
     * Member::role)}: one item per team and role); the read route's path then holds each of them.
     */
    public CounterViewBuilder<T, R> groupBy(Component<R, String> component, Function<T, String> field) {
        String named = own(component).getName();
        if (groups.contains(named)) {
            throw new IllegalArgumentException(answer.getSimpleName() + " is already grouped by " + named);
        }
        groups.add(named);
        groupOfs.add(Objects.requireNonNull(field, "field"));
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
     * Counts the entities per value of a field (a pivot: favourites per type): the component is a
     * {@code Map<String, Long>} of each value that counts something to its count, values with zero left out, in the
     * values' natural order. Stored as one counter a value, named {@code storedPrefix} and the value (a family of counters,
     * {@link DerivedType.Builder#counterFamily}); a value is an id ({@code Ids}), so that it cannot reach past its
     * prefix.
     *
     * @param storedPrefix the counters' prefix, e.g. {@code "type:"}: a camelCase name and ':', another than the
     *                     view's other families'
     */
    public CounterViewBuilder<T, R> countPer(Component<R, Map<String, Long>> component, Function<T, String> field,
                                             String storedPrefix) {
        return countPer(component, field, storedPrefix, null);
    }

    /**
     * As {@link #countPer(Component, Function, String)} over a fixed set of values (an enumeration's), the map's in
     * their order: an entity of another value is a problem, and a stored counter of another value is not read.
     */
    public CounterViewBuilder<T, R> countPer(Component<R, Map<String, Long>> component, Function<T, String> field,
                                             String storedPrefix, List<String> values) {
        RecordComponent described = own(component);
        if (described.getType() != Map.class) {
            throw new IllegalArgumentException(answer.getSimpleName() + "." + described.getName() + " holds a count"
                    + " per value: a Map<String, Long>, not " + described.getType().getSimpleName());
        }
        if (!storedPrefix.matches("[a-z][A-Za-z0-9]*:")) {
            throw new IllegalArgumentException("the stored prefix of " + described.getName() + " is a camelCase name"
                    + " and ':' (\"type:\"): " + storedPrefix);
        }
        if (families.containsKey(described.getName())) {
            throw new IllegalArgumentException(answer.getSimpleName() + "." + described.getName()
                    + " is already a figure of the view");
        }
        // Two families of one prefix would read each other's counters (a figure's name holds no ':', so it cannot).
        if (families.values().stream().anyMatch(family -> family.prefix().equals(storedPrefix))) {
            throw new IllegalArgumentException(answer.getSimpleName() + ": the stored prefix " + storedPrefix
                    + " is already a family's");
        }
        if (values != null && (values.isEmpty() || !values.stream().allMatch(io.tally.core.Ids::isValid))) {
            throw new IllegalArgumentException("the values of " + described.getName() + " are ids, at least one: "
                    + values);
        }
        families.put(described.getName(), new CounterFamily<>(storedPrefix, Objects.requireNonNull(field,
                "field"), values));
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

    /**
     * Counts the entities of another of the domain's entity types into the same items (figures fed by several entity
     * types: an organisation's teams, employees and memberships): {@code part} declares, over {@code other}, the same
     * groups in the same order (and the same bucket) and the figures it fills, with {@code count}, {@code sum} and
     * {@code countPer}, and its own filter. A figure two parts fill is their sum. The key, the name, the sharing, the
     * average and the read route are the view's.
     */
    public <U extends Record> CounterViewBuilder<T, R> alsoFrom(ItemSchema<U> other,
                                                                java.util.function.UnaryOperator<CounterViewBuilder<U, R>> part) {
        parts.add(Objects.requireNonNull(part.apply(new CounterViewBuilder<>(other, answer)), "part"));
        return this;
    }

    /** Declares the read route: {@code path} holds each of the group's components as its parameters. */
    public CounterViewBuilder<T, R> read(String path, Access access, Existence existence) {
        return read(path, access, existence, null);
    }

    /** Declares the read route, with its summary for the OpenAPI document. */
    public CounterViewBuilder<T, R> read(String path, Access access, Existence existence, String summary) {
        this.read = new CounterView.Read(path, access, existence, summary);
        return this;
    }

    public CounterView<T, R> build() {
        if (groups.isEmpty()) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view groups its entities (groupBy)");
        }
        if (counters.isEmpty() && families.isEmpty() && parts.isEmpty()) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view counts or sums something");
        }
        CounterViewParts.check(this);
        if (average != null && count == null) {
            throw new IllegalStateException(answer.getSimpleName() + ": an average needs the view's count");
        }
        if ((keyOf != null && bucket != null) || (bucketKeyOf != null && bucket == null)) {
            throw new IllegalStateException(answer.getSimpleName() + ": a view with a bucket is keyed by its group and"
                    + " its bucket, one without by its group");
        }
        String prefix = name.toUpperCase(java.util.Locale.ROOT);
        String groupPattern = "<" + String.join(">#<", groups) + ">";
        if (bucket != null) {
            if (bucketKeyOf == null) {
                keyPattern = prefix + "#" + groupPattern + " / " + bucket.prefix + "#<" + bucketComponent + ">";
                bucketKeyOf = (id, at) -> new Key(prefix + "#" + id, bucket.prefix + "#" + at);
            }
            // The subject joins the two with '#', which no id holds (Ids).
            java.util.function.BiFunction<String, String, Key> both = bucketKeyOf;
            Grouping<T> subjects = new Grouping<>(name, groups, groupOfs, where, bucket, bucketComponent, bucketOf);
            keyOf = subject -> both.apply(subjects.groupOf(subject), subjects.bucketOf(subject));
            // A key that ignores the bucket would sum every bucket into one item, and its route would label the sum
            // with whatever bucket was asked.
            if (both.apply("g", bucket.of(java.time.Instant.EPOCH)).equals(both.apply("g",
                    bucket.of(java.time.Instant.EPOCH.plus(java.time.Duration.ofDays(40)))))) {
                throw new IllegalStateException(answer.getSimpleName() + ": its key " + keyPattern
                        + " must differ by bucket");
            }
            if (groups.contains(bucketComponent)) {
                throw new IllegalStateException(answer.getSimpleName()
                        + ": the group and the bucket are two components");
            }
        } else if (keyOf == null) {
            keyPattern = prefix + "#" + groupPattern + " / #STATS#";
            keyOf = id -> new Key(prefix + "#" + id, "#STATS#");
        }
        List<String> unfilled = new ArrayList<>();
        for (RecordComponent component : answer.getRecordComponents()) {
            String named = component.getName();
            if (!groups.contains(named) && !named.equals(bucketComponent)
                    && !CounterViewParts.counters(this).contains(named)
                    && !CounterViewParts.families(this).containsKey(named)
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
            if (parameters.size() != groups.size() || !parameters.containsAll(groups)) {
                throw new IllegalStateException(answer.getSimpleName() + ": the read route " + read.path()
                        + " must hold the group's parameters {" + String.join("}, {", groups) + "} and no other");
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
