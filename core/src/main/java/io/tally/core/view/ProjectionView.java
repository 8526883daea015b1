package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.Document;
import io.tally.core.read.StatsJson;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A projection declared as data: chosen fields of an entity copied into an entry of their own (an index entry: a post
 * in its status partition, an item under its selector), kept on every change, moved when its key changes, and removed
 * when the entity is deleted or leaves the filter. The fields are a record's, the <b>projection</b>, made from the
 * entity; its components are the entry's document fields, those named {@link ProjectionViewBuilder#indexKeys} keys of
 * a secondary index.
 *
 * <p>Exactly once as every document: the entry is owned by its entity, written at twice the entity's revision and
 * removed one above (the entity's {@link ProjectionViewBuilder#revision}, which grows with each of its writes), so the
 * order in which the records of one entity reach the entry across stream shards cannot matter ({@link Document}).
 *
 * <pre>{@code
 * static final ProjectionView<Post, PostCard> BY_STATUS = ProjectionView.over(Post.SCHEMA, PostCard.class)
 *         .key("POSTS#<status>#<k> / <createdAt>#<postId>", post -> new Key(...))
 *         .project(post -> new PostCard(post.postId(), post.title(), post.status(), shard(post)))
 *         .indexKeys(PostCard::statusShard)
 *         .where(post -> !post.deleted())
 *         .revision(Post::version)
 *         .build();
 * }</pre>
 *
 * @param <T> the entity projected
 * @param <P> the projection: the entry's fields
 */
public final class ProjectionView<T extends Record, P extends Record> implements View<T> {
    private final ItemSchema<T> source;
    private final Class<P> projection;
    private final DerivedType type;
    private final Function<T, Key> keyOf;
    private final Function<T, P> project;
    private final Predicate<T> where;
    private final ToLongFunction<T> revision;
    private final ItemSchema<P> fields;
    private final ListRead list;
    private final Map<String, BiFunction<T, ShardSettings, ?>> computedKeys;
    /** The projection's components that are counters of its type, read from the item's counter. */
    private final List<String> counted;

    ProjectionView(ProjectionViewBuilder<T, P> builder) {
        this.source = builder.source;
        this.projection = builder.projection;
        this.keyOf = builder.keyOf;
        this.project = builder.project;
        this.where = builder.where;
        this.revision = builder.revision;
        this.list = builder.list;
        this.computedKeys = Map.copyOf(builder.computedKeys);
        List<String> counters = builder.declared == null ? List.of() : builder.declared.counters();
        List<String> names = new ArrayList<>(Arrays.stream(projection.getRecordComponents())
                .map(RecordComponent::getName).toList());
        names.removeAll(builder.indexKeys);
        names.removeAll(counters);
        List<String> indexKeys = new ArrayList<>(builder.indexKeys);
        indexKeys.addAll(builder.computedKeys.keySet());
        String name = builder.name;
        this.type = builder.declared != null ? declared(builder.declared, names, indexKeys) : DerivedType.named(name)
                .key(builder.keyPattern, subject -> {
                    throw new UnsupportedOperationException(name + " is keyed by its entity, not by a subject");
                })
                .document(names.toArray(String[]::new))
                .indexKeys(indexKeys.toArray(String[]::new))
                .build();
        // The projection's components as attributes, as an entity's are (a null one left out; a counter is the
        // engine's, read from the item's counter).
        ItemSchema.Builder<P> schema = ItemSchema.of(projection, type.entityType(), card -> {
            throw new UnsupportedOperationException("a projection is keyed by its entity");
        });
        Arrays.stream(projection.getRecordComponents()).filter(component -> !component.getType().isPrimitive())
                .forEach(component -> schema.optional(component.getName()));
        this.counted = counters.stream().filter(counter -> Arrays.stream(projection.getRecordComponents())
                .anyMatch(component -> component.getName().equals(counter))).toList();
        counted.forEach(schema::notStored);
        this.fields = schema.build();
    }

    /**
     * The domain's type of the entries, if it says what the projection writes: its fields and index keys (a type's
     * document holds both).
     */
    private static DerivedType declared(DerivedType type, List<String> fields, List<String> indexKeys) {
        Set<String> written = new HashSet<>(fields);
        written.addAll(indexKeys);
        if (!new HashSet<>(type.document()).equals(written) || !new HashSet<>(type.indexKeys()).equals(
                new HashSet<>(indexKeys))) {
            throw new IllegalStateException(type.name() + " declares the document " + type.document()
                    + " and the index keys " + type.indexKeys() + ", the projection writes " + fields
                    + " and the index keys " + indexKeys);
        }
        return type;
    }

    /** A projection of the entities {@code source} reads, into entries of {@code projection}'s fields. */
    public static <T extends Record, P extends Record> ProjectionViewBuilder<T, P> over(ItemSchema<T> source,
                                                                                    Class<P> projection) {
        return new ProjectionViewBuilder<>(source, projection);
    }

    @Override
    public ItemSchema<T> schema() {
        return source;
    }

    @Override
    public List<DerivedType> types() {
        return List.of(type);
    }

    /** The entries' type: their document is the projection's components. */
    public DerivedType type() {
        return type;
    }

    public Class<P> projection() {
        return projection;
    }

    /** The list route of the entries of one partition, if the projection declares one. */
    public java.util.Optional<ListRead> list() {
        return java.util.Optional.ofNullable(list);
    }

    /**
     * The projection an entry's item holds (its document's fields, and its counters: zero until one is counted; the key
     * and bookkeeping are ignored).
     *
     * @throws io.tally.core.MalformedItemException for an item of another type, or whose fields cannot be read
     */
    public P read(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> entry) {
        Items.expectType(entry, type.entityType());
        Map<String, Object> counters = new java.util.HashMap<>();
        counted.forEach(counter -> counters.put(counter, StatsJson.counter(entry, counter)));
        return fields.fields(entry, counters);
    }

    /** The revision of an entity's state, which its entry's document carries (twice it). */
    public long revision(T entity) {
        return revision.applyAsLong(entity);
    }

    /**
     * The entry of an entity in this state at the default shard counts ({@link ShardSettings#DEFAULTS}); the engine
     * contributes with the functions' counts ({@link #contribute(Record, ShardSettings, Contribution.Builder)}).
     */
    @Override
    public void contribute(T entity, Contribution.Builder into) {
        contribute(entity, ShardSettings.DEFAULTS, into);
    }

    /**
     * The entry of an entity in this state: its key and its fields, its index keys made with {@code shards} (at
     * revision 0: the derivation sets the entity's), or none when the filter leaves it out.
     */
    @Override
    public void contribute(T entity, ShardSettings shards, Contribution.Builder into) {
        if (where.test(entity)) {
            Key key = Objects.requireNonNull(keyOf.apply(entity),
                    () -> type.name() + ": the key of the entity is null");
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> values =
                    fields.fieldsOf(project.apply(entity));
            computedKeys.forEach((attribute, value) -> values.put(attribute, attribute(attribute,
                    value.apply(entity, shards))));
            into.document(key, new Document(type, values, 0));
        }
    }

    private software.amazon.awssdk.services.dynamodb.model.AttributeValue attribute(String name, Object value) {
        if (value instanceof String text) {
            return Items.s(text);
        }
        if (value instanceof Number number) {
            return Items.n(number.longValue());
        }
        throw new IllegalArgumentException(type.name() + ": the index key " + name + " is a string or a whole number,"
                + " not " + (value == null ? "null" : value.getClass().getSimpleName()));
    }

    @Override
    public String toString() {
        return "projection " + type.name() + " of " + source.entityType().attributeValue();
    }

    /**
     * How a projection lists its entries: the route, who may call it, the partition from the path's parameters, the
     * order of the sort keys and the OpenAPI summary.
     */
    public record ListRead(String path, io.tally.core.http.Access access,
                           Function<java.util.Map<String, String>, String> partition, boolean descending,
                           String summary) {
        public ListRead {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(access, "access");
            Objects.requireNonNull(partition, "partition");
        }
    }
}
