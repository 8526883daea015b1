package io.tally.core.domain;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.read.BatchReads;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.read.ShardMerge.ShardRead;
import io.tally.core.view.ProjectionView;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A projection's entries listed from several partitions ("shards") of a secondary index, highest range key first, ties
 * by the entry's table key descending: one Query per shard that is not exhausted, merged into one page with one cursor
 * for all shards ({@link ShardMerge}), the entries rendered as the projection's record. The index projects the entries'
 * fields but their counters (a comment does not rewrite the index entry); a page reads those from the table in one
 * BatchGetItem, eventually consistent as the index.
 *
 * <p>The route is the domain's: it checks its parameters, names the partitions and the cursor's scope (the list and
 * its shard count, so that a cursor of another list, or from before the count changed, is refused rather than
 * misread), and hands them to {@link #page}: {@code limit} 1..100, then the cursor, each a 400 naming it.
 *
 * <pre>{@code
 * ShardedList posts = ShardedList.of(BlogFigures.PROJECTION, BlogKeys.POSTS_BY_STATUS);
 * return posts.page(context, request, "posts-by-status\n" + status + "\n" + shards, partitions);
 * }</pre>
 */
public final class ShardedList {
    /** A number as DynamoDB answers it: no exponent, no leading zeros, no trailing zeros after the point. */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,37})(\\.[0-9]{0,37}[1-9])?");
    private final TableIndex index;
    /** What an entry renders as in the page. */
    private final Function<Map<String, AttributeValue>, ?> render;
    /** The counters of the entries' type, read from the table beside the index. */
    private final List<String> counters;
    private final boolean numeric;
    private final ShardMerge<Map<String, AttributeValue>> merge;
    /** What a query asks of each entry: its type, fields and the parts of its position; not its counters. */
    private final List<String> listed;

    private ShardedList(TableIndex index, Function<Map<String, AttributeValue>, ?> render, List<String> listed,
                        List<String> counters) {
        this.index = Objects.requireNonNull(index, "index");
        this.render = Objects.requireNonNull(render, "render");
        this.numeric = index.range().type() == ScalarAttributeType.N;
        Comparator<Position> bySort = numeric ? Comparator.comparing((Position p) -> new BigDecimal(p.sort()))
                : Comparator.comparing(Position::sort);
        this.merge = new ShardMerge<>(this::position, bySort.thenComparing(Position::id).reversed());
        this.listed = List.copyOf(listed);
        this.counters = List.copyOf(counters);
    }

    /**
     * The entries of {@code view} listed from several partitions of a secondary index whose keys they carry, merged: the
     * read of a list route the domain declares (a status spread over shards, a selector's partitions).
     *
     * @throws IllegalArgumentException for an index whose keys are not the entries' index keys
     */
    public static ShardedList of(ProjectionView<?, ?> view, TableIndex index) {
        String hash = index.hash().attribute();
        String range = index.range().attribute();
        if (!view.type().indexKeys().contains(hash) || !view.type().indexKeys().contains(range)) {
            throw new IllegalArgumentException(view.type().name() + " does not carry the keys of " + index.name()
                    + " (" + hash + ", " + range + "): its index keys are " + view.type().indexKeys());
        }
        List<String> listed = DerivedReads.listed(view.type(), TableSchema.PK, TableSchema.SK, range).stream()
                .filter(attribute -> !view.type().counters().contains(attribute)).toList();
        return new ShardedList(index, view::read, listed, view.type().counters());
    }

    /**
     * Items listed whole (every attribute the index projects) from several partitions of a secondary index, each
     * rendered by {@code render}: a list of entities, such as a user's favourites of every type merged from their
     * type partitions.
     */
    public static ShardedList of(TableIndex index, Function<Map<String, AttributeValue>, ?> render) {
        return new ShardedList(index, render, List.of(), List.of());
    }

    /**
     * One page of the entries of {@code partitions}, merged, as the contract's {@code {"items": [...], "cursor": ...}}.
     *
     * @param scope what the cursor is good for: the list, its parameters and the number of partitions
     */
    public ApiResponse page(RouteContext context, ApiRequest request, String scope, List<String> partitions) {
        return page(context, request, scope, partitions, () -> { });
    }

    /**
     * {@link #page(RouteContext, ApiRequest, String, List)}, with {@code beforeReading} run once the limit and the
     * cursor are found valid and before the index is read (the owner's existence, say: a 404 after a 400).
     */
    public ApiResponse page(RouteContext context, ApiRequest request, String scope, List<String> partitions,
                            Runnable beforeReading) {
        int limit = Page.limit(request);
        List<Resume> from = ShardMerge.decode(context.cursors(), scope, request.queryParameter("cursor"),
                partitions.size(), this::isValid);
        beforeReading.run();
        MergedPage<Map<String, AttributeValue>> page = merged(from, DerivedReads.readShards(context.dynamo(), from,
                (shard, after) -> query(context.table(), partitions.get(shard), limit, after), this::position), limit);
        List<Map<String, AttributeValue>> items = counters.isEmpty() ? page.items()
                : withCounters(page.items(), BatchReads.getAll(context.dynamo(), context.table(),
                        page.items().stream().map(ShardedList::key).toList(), countersAndKey()));
        return ApiResponse.ok(Page.body(items.stream().map(item -> Json.tree(render.apply(item))).toList(),
                ShardMerge.encode(context.cursors(), scope, page.next())));
    }

    /** The page the shards' reads make, in the list's order, and where each shard continues. */
    MergedPage<Map<String, AttributeValue>> merged(List<Resume> from, List<ShardRead<Map<String, AttributeValue>>> reads,
                                                   int limit) {
        return merge.merge(from, reads, limit);
    }

    /** What the table read of a page's entries asks for: their key, to match them up by, and their counters. */
    private List<String> countersAndKey() {
        List<String> attributes = new ArrayList<>(List.of(TableSchema.PK, TableSchema.SK));
        attributes.addAll(counters);
        return attributes;
    }

    /** One page of one partition, after a position; one item more than the page. */
    QueryRequest query(String table, String partition, int limit, Position after) {
        Map<String, AttributeValue> start = null;
        if (after != null) {
            start = new HashMap<>(tableKey(after).toAttributeMap());
            start.put(index.hash().attribute(), AttributeValue.fromS(partition));
            start.put(index.range().attribute(), numeric ? AttributeValue.fromN(after.sort())
                    : AttributeValue.fromS(after.sort()));
        }
        return DerivedReads.indexQuery(table, index.name(), index.hash().attribute(), partition, listed, limit, start);
    }

    /**
     * Where an entry (or a {@code LastEvaluatedKey} of the index) sits: its range key, and its table key as
     * {@code <pk>\n<sk>}.
     */
    Position position(Map<String, AttributeValue> item) {
        AttributeValue range = item.get(index.range().attribute());
        String sort = range == null ? null : numeric ? range.n() : range.s();
        if (sort == null) {
            throw new MalformedItemException("the entry has no " + index.range().attribute() + " of type "
                    + index.range().type());
        }
        return new Position(sort, Items.string(item, TableSchema.PK) + "\n" + Items.string(item, TableSchema.SK));
    }

    /** A position from a cursor must be one {@link #position} could have produced. */
    boolean isValid(Position position) {
        if (tableKey(position) == null) {
            return false;
        }
        return numeric ? NUMBER.matcher(position.sort()).matches() : !position.sort().isEmpty();
    }

    /** The table key a position's id holds ({@code <pk>\n<sk>}), or null when it holds none. */
    private static Key tableKey(Position position) {
        String[] key = position.id().split("\n", -1);
        return key.length == 2 && !key[0].isEmpty() && !key[1].isEmpty() ? new Key(key[0], key[1]) : null;
    }

    private static Key key(Map<String, AttributeValue> item) {
        return new Key(Items.string(item, TableSchema.PK), Items.string(item, TableSchema.SK));
    }

    /**
     * The page's entries with their counters from {@code read} (the entries as the table holds them, matched by key);
     * an entry the read did not return (removed since the query) keeps none, which reads as zero.
     */
    List<Map<String, AttributeValue>> withCounters(List<Map<String, AttributeValue>> entries,
                                                   List<Map<String, AttributeValue>> read) {
        Map<Key, Map<String, AttributeValue>> byKey = new HashMap<>();
        read.forEach(item -> byKey.put(key(item), item));
        return entries.stream().map(entry -> {
            Map<String, AttributeValue> counted = byKey.get(key(entry));
            if (counted == null) {
                return entry;
            }
            Map<String, AttributeValue> merged = new HashMap<>(entry);
            counters.forEach(counter -> {
                if (counted.containsKey(counter)) {
                    merged.put(counter, counted.get(counter));
                }
            });
            return merged;
        }).toList();
    }
}
