package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.http.Access;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/** Declares a {@link ProjectionView}: its key, how the projection is made, its index keys, filter and revision. */
public final class ProjectionViewBuilder<T extends Record, P extends Record> {
    final ItemSchema<T> source;
    final Class<P> projection;
    String name;
    String keyPattern;
    Function<T, Key> keyOf;
    Function<T, P> project;
    final List<String> indexKeys = new ArrayList<>();
    /** Index keys that are not the projection's components: each made of the entity and the shard counts. */
    final java.util.Map<String, BiFunction<T, ShardSettings, ?>> computedKeys = new java.util.LinkedHashMap<>();
    /** The derived type the domain declares for the entries, with counters of its own beside the document; or null. */
    DerivedType declared;
    ProjectionView.ListRead list;
    Predicate<T> where = entity -> true;
    ToLongFunction<T> revision;

    ProjectionViewBuilder(ItemSchema<T> source, Class<P> projection) {
        this.source = Objects.requireNonNull(source, "the entities' schema is null: is the projection declared in a"
                + " class that the entity's own class initialises from (a cycle of static fields)? Declare it in a"
                + " class of its own");
        this.projection = Objects.requireNonNull(projection, "projection");
        if (!projection.isRecord()) {
            throw new IllegalArgumentException("a projection is a record: " + projection.getName());
        }
        this.name = projection.getSimpleName();
    }

    /** The entries' type name (the items' {@code entityType}); by default the projection record's simple name. */
    public ProjectionViewBuilder<T, P> named(String typeName) {
        this.name = Objects.requireNonNull(typeName, "typeName");
        return this;
    }

    /** Where an entity's entry lives: its documented pattern and the key of an entity's state. */
    public ProjectionViewBuilder<T, P> key(String pattern, Function<T, Key> keyOf) {
        this.keyPattern = Objects.requireNonNull(pattern, "pattern");
        this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
        return this;
    }

    /**
     * The entries are items of {@code type}, which the domain declares (its key pattern, and counters that other
     * derivations keep on the same item, a post's comments beside its copy); an entity's entry is the item of its
     * {@code subject}. The type's document is the projection's components but its counters, and its index keys those
     * the projection names ({@link #indexKeys}, {@link #indexKey}); the build refuses a type that says otherwise.
     */
    public ProjectionViewBuilder<T, P> type(DerivedType type, Function<T, String> subject) {
        this.declared = Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subject, "subject");
        this.name = type.name();
        this.keyPattern = type.keyPattern();
        this.keyOf = entity -> type.key(subject.apply(entity));
        return this;
    }

    /**
     * An index key of the entry that is no component of the projection: a string or a number made of the entity and
     * the functions' shard counts ({@code ShardSettings}, as {@code Domain.derivations} is given them), e.g. the index
     * partition an entry is spread to.
     */
    public ProjectionViewBuilder<T, P> indexKey(String attribute, BiFunction<T, ShardSettings, ?> value) {
        Objects.requireNonNull(attribute, "attribute");
        Objects.requireNonNull(value, "value");
        if (computedKeys.put(attribute, value) != null || indexKeys.contains(attribute)) {
            throw new IllegalArgumentException("the index key " + attribute + " is declared twice");
        }
        return this;
    }

    /** The entry's fields of an entity's state. */
    public ProjectionViewBuilder<T, P> project(Function<T, P> project) {
        this.project = Objects.requireNonNull(project, "project");
        return this;
    }

    /** The projection's components that are keys of a secondary index. */
    @SafeVarargs
    public final ProjectionViewBuilder<T, P> indexKeys(Component<P, ?>... components) {
        for (Component<P, ?> component : components) {
            RecordComponent described = Component.describe(component);
            if (described.getDeclaringRecord() != projection) {
                throw new IllegalArgumentException(described.getName() + " is not a component of "
                        + projection.getSimpleName());
            }
            indexKeys.add(described.getName());
        }
        return this;
    }

    /** Projects only the entities the filter admits; a change out of it removes the entry, back in writes it. */
    public ProjectionViewBuilder<T, P> where(Predicate<T> filter) {
        this.where = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /**
     * The revision of an entity's state: at least 0 and higher in every later state, a re-creation after a delete
     * included (a version the writer raises with each write, say). A state whose revision cannot be read (the function
     * throws) contributes nothing to any view of the entity type, its record a dead letter, as an unreadable image.
     */
    public ProjectionViewBuilder<T, P> revision(ToLongFunction<T> revision) {
        this.revision = Objects.requireNonNull(revision, "revision");
        return this;
    }

    /**
     * Declares the list route: {@code GET path} answers a page of the entries in the table partition {@code partition}
     * names from the path's parameters (by name, each checked as an id), e.g. {@code params -> "CARDS#" +
     * params.get("userId")}, in the order of their sort keys ({@code descending}: last first), {@code limit} 1..100
     * (default 25) and a signed {@code cursor} for the next page. Items of other types in the partition are skipped.
     */
    public ProjectionViewBuilder<T, P> list(String path, Access access,
                                            Function<java.util.Map<String, String>, String> partition,
                                            boolean descending, String summary) {
        this.list = new ProjectionView.ListRead(path, access, partition, descending, summary);
        return this;
    }

    public ProjectionView<T, P> build() {
        if (keyOf == null || project == null || revision == null) {
            throw new IllegalStateException(projection.getSimpleName() + ": a projection says its key, how it is made"
                    + " and the entity's revision (key, project, revision)");
        }
        if (!name.matches("[A-Za-z][A-Za-z0-9]*")) {
            throw new IllegalStateException("a projection's type name is letters and digits: " + name);
        }
        if (list != null && io.tally.core.http.Router.parameters(list.path()).isEmpty()) {
            // A list of one partition for every caller would let its access rule check nothing.
            throw new IllegalStateException(projection.getSimpleName() + ": the list route " + list.path()
                    + " names its partition by a path parameter");
        }
        return new ProjectionView<>(this);
    }
}
