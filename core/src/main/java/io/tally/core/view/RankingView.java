package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.derive.Contribution;
import io.tally.core.http.Access;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A ranking declared as data: the groups of a domain's entities (the items bookmarked, the songs downloaded) by a
 * figure of theirs (how many, or the sum of a field), per time bucket, the top N read in one route. Each group of a
 * bucket has an <b>entry</b>: an item whose figure is the range key of the table's {@code CycleSelector} index and
 * whose {@code selector}, {@code rank:<name>:<bucket>:<k>}, places it in one of the ranking's {@link #shards} index
 * partitions (k from the group's id, so that one bucket's writes spread over k partitions); the reader reads the top
 * of each partition and merges them ({@link RankingReads}).
 *
 * <p>The figure is the index's key, so it is one attribute of one item: an entry cannot be kept as per-shard partials
 * ({@link DerivedType#isShared}). It is written by the stream shards of every partition its group's entities live in,
 * and keeps one watermark for each. <b>Key the entities under their group</b>, in a fixed number of partitions (a
 * bookmark under its item, {@code BOOKMARKS#<itemId>#<k>}, k from its user), so that an entry is written from those
 * few partitions only; entities spread over their users' partitions would give an entry a watermark for every stream
 * shard of the table that wrote it (docs/exactly-once.md, "Bounded bookkeeping").
 *
 * <p>The entry's document (the group's id, the bucket, the selector) is a function of its key, written with every
 * change that counts on it and never removed ({@link DerivedType#hasConstantDocument}): an entry whose figure went
 * back to 0 stays, and the reader skips it.
 *
 * <pre>{@code
 * static final RankingView<Bookmark, TopBookmarked> TOP = RankingView.over(Bookmark.SCHEMA, TopBookmarked.class)
 *         .groupBy(ItemBookmarks::itemId, Bookmark::itemId)
 *         .count(ItemBookmarks::bookmarks)
 *         .bucket(TopBookmarked::month, Bucket.MONTH, Bookmark::createdAt)
 *         .read("/stats/bookmarks/top", Access.READ_SIDE, "The month's most bookmarked items")
 *         .build();
 * }</pre>
 *
 * @param <T> the entity ranked by its group
 * @param <P> the route's answer, the <b>page</b>: the bucket (a String) and the list of entries, in any order
 */
public final class RankingView<T extends Record, P extends Record> implements View<T> {
    /** Every ranking's selectors start so: no catalogue selector, no chart partition, holds a ':' after it. */
    static final String SELECTOR_PREFIX = "rank:";

    private final ItemSchema<T> source;
    private final Class<P> page;
    private final Class<? extends Record> entry;
    private final String list;
    private final DerivedType type;
    private final String prefix;
    private final String group;
    private final String figure;
    private final ToLongFunction<T> amount;
    private final Bucket bucket;
    private final String bucketComponent;
    private final int shards;
    private final int defaultLimit;
    private final CounterView.Read read;
    private final Constructor<P> pageMaker;
    private final Constructor<? extends Record> entryMaker;
    private final boolean groupFirst;
    private final Grouping<T> grouping;

    RankingView(RankingViewBuilder<T, P> builder) {
        this.source = builder.source;
        this.page = builder.page;
        this.entry = builder.entry;
        this.list = builder.list;
        this.group = builder.group;
        this.figure = builder.figure;
        this.amount = builder.amount;
        this.bucket = builder.bucket;
        this.bucketComponent = builder.bucketComponent;
        this.shards = builder.shards;
        this.defaultLimit = builder.defaultLimit;
        this.read = builder.read;
        this.grouping = Grouping.of(builder.name, group, builder.groupOf, builder.where, bucket,
                bucketComponent, builder.bucketOf);
        this.prefix = builder.name.toUpperCase(java.util.Locale.ROOT) + "#";
        String sk = bucket == null ? "#RANK#" : bucket.prefix + "#";
        DerivedType.Builder declared = DerivedType.named(builder.name)
                .key(prefix + "<" + group + "> / " + sk + (bucket == null ? "" : "<" + bucketComponent + ">"),
                        this::key)
                .counters(TableSchema.DATA)
                .indexKeys(TableSchema.SELECTOR)
                .constantDocument();
        declared.document(bucket == null ? new String[] {group} : new String[] {group, bucketComponent});
        this.type = declared.build();
        this.pageMaker = canonical(page);
        this.entryMaker = canonical(entry);
        this.groupFirst = entry.getRecordComponents()[0].getName().equals(group);
        // A page or an entry that cannot be made fails here, not on a request.
        answer(bucket == null ? null : bucket.of(Instant.EPOCH), List.of(new RankingReads.Ranked("g", 1)));
    }

    /** A ranking of the entities {@code source} reads, answered as {@code page}. */
    public static <T extends Record, P extends Record> RankingViewBuilder<T, P> over(ItemSchema<T> source,
                                                                                 Class<P> page) {
        return new RankingViewBuilder<>(source, page);
    }

    @Override
    public ItemSchema<T> schema() {
        return source;
    }

    @Override
    public List<DerivedType> types() {
        return List.of(type);
    }

    /** The entries' type: one item per group (and bucket), its figure in {@code data}. */
    public DerivedType type() {
        return type;
    }

    public Class<P> page() {
        return page;
    }

    /** The page's component that holds the list of entries. */
    public String list() {
        return list;
    }

    /** The entry's component that holds the group's id. */
    public String group() {
        return group;
    }

    /** The entry's component that holds the figure (stored as {@code data}). */
    public String figure() {
        return figure;
    }

    public Optional<Bucket> bucket() {
        return Optional.ofNullable(bucket);
    }

    /** The page's component that holds the bucket, which is also the route's query parameter; null without. */
    public String bucketComponent() {
        return bucketComponent;
    }

    /** How many index partitions a bucket's entries spread over. */
    public int shards() {
        return shards;
    }

    /** The number of entries the route answers without a {@code limit}. */
    public int defaultLimit() {
        return defaultLimit;
    }

    public Optional<CounterView.Read> read() {
        return Optional.ofNullable(read);
    }

    /**
     * The subject of the entry an entity counts in ({@code <group>} or {@code <group>#<bucket>}), or empty when the
     * filter leaves it out.
     *
     * @throws IllegalArgumentException when its group is not a valid id or its instant is missing (a dead letter)
     */
    public Optional<String> subjectOf(T entity) {
        return grouping.subjectOf(entity);
    }

    @Override
    public void contribute(T entity, Contribution.Builder into) {
        subjectOf(entity).ifPresent(subject -> {
            into.count(type, subject, TableSchema.DATA, amount.applyAsLong(entity));
            into.document(type, subject, document(subject));
        });
    }

    /** The entry's document: the group's id, the bucket and the selector, all from the subject. */
    Map<String, AttributeValue> document(String subject) {
        String id = groupOf(subject);
        String selector = partition(bucketOf(subject), shardOf(id));
        return bucket == null
                ? Map.of(group, AttributeValue.fromS(id), TableSchema.SELECTOR, AttributeValue.fromS(selector))
                : Map.of(group, AttributeValue.fromS(id), bucketComponent, AttributeValue.fromS(bucketOf(subject)),
                        TableSchema.SELECTOR, AttributeValue.fromS(selector));
    }

    /** The index partition ({@code selector}) of shard {@code k} of a bucket (null without buckets). */
    public String partition(String bucketValue, int shard) {
        return SELECTOR_PREFIX + type.name() + ":" + (bucket == null ? "" : bucketValue + ":") + shard;
    }

    /** The shard of a group's entries: CRC-32 of its id, modulo {@link #shards}. */
    public int shardOf(String groupId) {
        CRC32 crc = new CRC32();
        crc.update(groupId.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    /** The group's id of an entry's partition key, as the index returns it. */
    String groupOfKey(String pk) {
        if (!pk.startsWith(prefix)) {
            throw new IllegalStateException(type.name() + ": an entry's partition key starts with " + prefix + ": "
                    + pk);
        }
        return pk.substring(prefix.length());
    }

    private Key key(String subject) {
        String id = groupOf(subject);
        return new Key(prefix + id, bucket == null ? "#RANK#" : bucket.prefix + "#" + bucketOf(subject));
    }

    private String groupOf(String subject) {
        return grouping.groupOf(subject);
    }

    private String bucketOf(String subject) {
        return grouping.bucketOf(subject);
    }

    /** The route's answer: the bucket (if any) and the entries, in ranking order. */
    P answer(String bucketValue, List<RankingReads.Ranked> ranked) {
        List<Object> entries = ranked.stream().map(this::entryOf).toList();
        RecordComponent[] components = page.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = components[i].getName().equals(bucketComponent) ? bucketValue : entries;
        }
        return make(pageMaker, values);
    }

    private Object entryOf(RankingReads.Ranked ranked) {
        Class<?> figureType = entry.getRecordComponents()[groupFirst ? 1 : 0].getType();
        Object value = Numbers.of(figureType, ranked.figure());
        return make(entryMaker, groupFirst ? new Object[] {ranked.group(), value}
                : new Object[] {value, ranked.group()});
    }

    private static <R> R make(Constructor<R> maker, Object[] values) {
        try {
            return maker.newInstance(values);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot make " + maker.getDeclaringClass().getName() + ": " + e, e);
        }
    }

    private static <R> Constructor<R> canonical(Class<R> record) {
        try {
            Constructor<R> canonical = record.getDeclaredConstructor(java.util.Arrays.stream(
                    record.getRecordComponents()).map(RecordComponent::getType).toArray(Class<?>[]::new));
            canonical.setAccessible(true);
            return canonical;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make " + record.getName() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return "ranking " + type.name() + " of " + source.entityType().attributeValue() + " by " + group;
    }
}
