package io.tally.core.view;

import io.tally.core.ItemSchema;
import io.tally.core.http.Access;
import io.tally.core.http.Page;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Declares a {@link RankingView}; {@link #build} checks it against its records: the page holds the list of entries
 * and, with a bucket, the bucket; an entry holds the group's id and the figure, nothing else.
 */
public final class RankingViewBuilder<T extends Record, P extends Record> {
    /** Index partitions per bucket unless declared: as the songs' chart. */
    static final int DEFAULT_SHARDS = 4;

    final ItemSchema<T> source;
    final Class<P> page;
    final Class<? extends Record> entry;
    final String list;
    String name;
    String group;
    Function<T, String> groupOf;
    String figure;
    ToLongFunction<T> amount;
    Predicate<T> where = entity -> true;
    Bucket bucket;
    String bucketComponent;
    Function<T, Instant> bucketOf;
    int shards = DEFAULT_SHARDS;
    int defaultLimit = 10;
    CounterView.Read read;

    RankingViewBuilder(ItemSchema<T> source, Class<P> page) {
        this.source = Objects.requireNonNull(source, "the entities' schema is null: is the ranking declared in a"
                + " class that the entity's own class initialises from (a cycle of static fields)? Declare it in a"
                + " class of its own");
        this.page = Objects.requireNonNull(page, "page");
        if (!page.isRecord()) {
            throw new IllegalArgumentException("a ranking's page is a record: " + page.getName());
        }
        this.name = page.getSimpleName();
        RecordComponent entries = null;
        for (RecordComponent component : page.getRecordComponents()) {
            if (component.getType() == List.class) {
                if (entries != null) {
                    throw new IllegalArgumentException(page.getSimpleName() + " holds two lists: " + entries.getName()
                            + ", " + component.getName());
                }
                entries = component;
            }
        }
        if (entries == null || !(entries.getGenericType() instanceof ParameterizedType listed)
                || !(listed.getActualTypeArguments()[0] instanceof Class<?> of) || !of.isRecord()) {
            throw new IllegalArgumentException(page.getSimpleName() + " holds the ranking's entries: a List of a"
                    + " record");
        }
        this.entry = of.asSubclass(Record.class);
        this.list = entries.getName();
    }

    /** The entries' type name (the items' {@code entityType}); by default the page record's simple name. */
    public RankingViewBuilder<T, P> named(String typeName) {
        this.name = Objects.requireNonNull(typeName, "typeName");
        return this;
    }

    /** Ranks the groups of a field: the entry's component that holds the group's id, and the entity's field. */
    public <E extends Record> RankingViewBuilder<T, P> groupBy(Component<E, String> component,
                                                               Function<T, String> field) {
        this.group = entryComponent(component).getName();
        this.groupOf = Objects.requireNonNull(field, "field");
        return this;
    }

    /** Ranks the groups by how many entities they have: the entry's component that holds the count. */
    public <E extends Record> RankingViewBuilder<T, P> count(Component<E, ? extends Number> component) {
        return figure(component, entity -> 1L);
    }

    /** Ranks the groups by the sum of a whole-number field of their entities. */
    public <E extends Record> RankingViewBuilder<T, P> sum(Component<E, ? extends Number> component,
                                                           ToLongFunction<T> field) {
        return figure(component, Objects.requireNonNull(field, "field"));
    }

    /** Ranks only the entities the filter admits; a change in or out of it counts up or down. */
    public RankingViewBuilder<T, P> where(Predicate<T> filter) {
        this.where = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /**
     * Ranks per time bucket of an instant of the entity: the page's component that holds the bucket, which the route
     * takes as the required query parameter of its name.
     */
    public RankingViewBuilder<T, P> bucket(Component<P, String> component, Bucket bucket, Function<T, Instant> at) {
        RecordComponent described = Component.describe(component);
        if (described.getDeclaringRecord() != page) {
            throw new IllegalArgumentException(described.getName() + " is not a component of "
                    + page.getSimpleName());
        }
        this.bucketComponent = described.getName();
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.bucketOf = Objects.requireNonNull(at, "at");
        return this;
    }

    /** How many index partitions one bucket's entries spread over (1..100; default 4). */
    public RankingViewBuilder<T, P> shards(int count) {
        if (count < 1 || count > 100) {
            throw new IllegalArgumentException("a ranking spreads over 1..100 index partitions, not " + count);
        }
        this.shards = count;
        return this;
    }

    /** How many entries the route answers without a {@code limit} (1..100; default 10). */
    public RankingViewBuilder<T, P> defaultLimit(int limit) {
        if (limit < 1 || limit > Page.MAX_LIMIT) {
            throw new IllegalArgumentException("a default limit is 1.." + Page.MAX_LIMIT + ", not " + limit);
        }
        this.defaultLimit = limit;
        return this;
    }

    /** Declares the read route (no path parameter: the bucket and {@code limit} are query parameters). */
    public RankingViewBuilder<T, P> read(String path, Access access, String summary) {
        this.read = new CounterView.Read(path, access, Existence.zeros(), summary);
        return this;
    }

    public RankingView<T, P> build() {
        if (group == null || figure == null) {
            throw new IllegalStateException(page.getSimpleName() + ": a ranking groups its entities (groupBy) and"
                    + " counts or sums them");
        }
        RecordComponent[] entryComponents = entry.getRecordComponents();
        if (entryComponents.length != 2) {
            throw new IllegalStateException(entry.getSimpleName() + ": an entry holds the group's id and the figure,"
                    + " nothing else");
        }
        int expected = bucket == null ? 1 : 2;
        if (page.getRecordComponents().length != expected) {
            throw new IllegalStateException(page.getSimpleName() + ": a page holds the list of entries and, for a"
                    + " ranking per bucket (declared with bucket(...)), the bucket; nothing else");
        }
        if (read != null && !io.tally.core.http.Router.parameters(read.path()).isEmpty()) {
            throw new IllegalStateException(page.getSimpleName() + ": a ranking's route " + read.path()
                    + " has no path parameter");
        }
        if (!name.matches("[A-Za-z][A-Za-z0-9]*")) {
            throw new IllegalStateException("a ranking's type name is letters and digits: " + name);
        }
        return new RankingView<>(this);
    }

    private RankingViewBuilder<T, P> figure(Component<?, ? extends Number> component, ToLongFunction<T> field) {
        if (figure != null) {
            throw new IllegalArgumentException(page.getSimpleName() + " ranks by one figure: " + figure + ", "
                    + Component.describe(component).getName());
        }
        RecordComponent described = entryComponent(component);
        if (!Numbers.isWhole(described.getType())) {
            throw new IllegalArgumentException(entry.getSimpleName() + "." + described.getName()
                    + " holds a count or a sum: a long, not " + described.getType().getSimpleName());
        }
        this.figure = described.getName();
        this.amount = field;
        return this;
    }

    private RecordComponent entryComponent(Component<?, ?> component) {
        RecordComponent described = Component.describe(component);
        if (described.getDeclaringRecord() != entry) {
            throw new IllegalArgumentException(described.getName() + " is a component of "
                    + described.getDeclaringRecord().getSimpleName() + ", not of the entry " + entry.getSimpleName());
        }
        return described;
    }
}
