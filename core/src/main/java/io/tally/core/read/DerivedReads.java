package io.tally.core.read;

import io.tally.core.DerivedType;
import io.tally.core.Ids;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.read.ShardMerge.ShardRead;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The read side's requests as every domain builds them (access patterns D1 to D5 of
 * {@code docs/table-design.md}), so that each domain's reads follow the same rules.
 *
 * <p>Table reads are strongly consistent, so that the only lag a client sees there is the stream processor's;
 * index queries cannot be (a global secondary index is eventually consistent) and add the index's own lag.
 * Every read names the attributes it needs, taken from the derived type's declaration: derived items also carry
 * a watermark per stream shard that wrote them, which the read side has no use for.
 */
public final class DerivedReads {
    private DerivedReads() {
    }

    /** The entity type and the counters of a derived type: what a read of its counts needs. */
    public static List<String> counters(DerivedType type) {
        return with(TableSchema.ENTITY_TYPE, type.counters());
    }

    /** The entity type and these counters of a shared derived type (the registry's, {@code DomainRegistry.counters}). */
    public static List<String> counters(DerivedType type, List<String> counters) {
        return with(TableSchema.ENTITY_TYPE, counters);
    }

    /**
     * What a list of a derived type's items shows: the entity type, the document without the index keys, the
     * counters, then the key parts a position in the list is read from.
     */
    public static List<String> listed(DerivedType type, String... keyParts) {
        return Stream.of(Stream.of(TableSchema.ENTITY_TYPE),
                        type.document().stream().filter(field -> !type.indexKeys().contains(field)),
                        type.counters().stream(), Stream.of(keyParts))
                .flatMap(Function.identity())
                .toList();
    }

    /** A consistent read of the named attributes of one item. */
    public static GetItemRequest get(String table, Key key, List<String> attributes) {
        Map<String, String> names = new HashMap<>();
        String projection = projection(attributes, names);
        return GetItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .projectionExpression(projection)
                .expressionAttributeNames(names)
                .consistentRead(true)
                .build();
    }

    /** Whether an item was ever written: only its key is read. */
    public static GetItemRequest exists(String table, Key key) {
        return get(table, key, List.of(TableSchema.PK));
    }

    /**
     * One page of one index partition, highest range key first; one item more than the page; the named attributes, or
     * every one the index projects when none is named.
     */
    public static QueryRequest indexQuery(String table, String index, String hashAttribute, String partition,
                                          List<String> attributes, int limit, Map<String, AttributeValue> startKey) {
        Map<String, String> names = new HashMap<>();
        String projection = attributes.isEmpty() ? null : projection(attributes, names);
        names.put("#partition", hashAttribute);
        return QueryRequest.builder()
                .tableName(table)
                .indexName(index)
                .keyConditionExpression("#partition = :partition")
                .expressionAttributeNames(names)
                .expressionAttributeValues(Map.of(":partition", AttributeValue.fromS(partition)))
                .projectionExpression(projection)
                .scanIndexForward(false)
                .limit(limit + 1)
                .exclusiveStartKey(startKey)
                .build();
    }

    /**
     * Whether a position read from a cursor is one a list ranged by {@code <timestamp>#<id>} could have produced: an
     * identifier, and a timestamp in the one spelling that sorts as its time.
     */
    public static boolean isTimeAndId(Position position) {
        if (!Ids.isValid(position.id())) {
            return false;
        }
        try {
            return Timestamps.format(Timestamps.parse(position.sort())).equals(position.sort());
        } catch (MalformedItemException e) {
            return false;
        }
    }

    /** The item a GetItem found, or null: the SDK answers a miss with an empty map. */
    public static Map<String, AttributeValue> found(GetItemResponse response) {
        return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    }

    /** What one query of one shard gave the merge. */
    public static ShardRead<Map<String, AttributeValue>> read(QueryResponse response,
                                                               Function<Map<String, AttributeValue>, Position> position) {
        Position last = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? position.apply(response.lastEvaluatedKey()) : null;
        return new ShardRead<>(response.items(), last);
    }

    /**
     * One query per shard that is not exhausted. One after the other: K is small, and the synchronous client
     * keeps the function simple; parallel queries would cut the latency to that of the slowest shard.
     */
    public static List<ShardRead<Map<String, AttributeValue>>> readShards(
            DynamoDbClient dynamo, List<Resume> from, BiFunction<Integer, Position, QueryRequest> request,
            Function<Map<String, AttributeValue>, Position> position) {
        List<ShardRead<Map<String, AttributeValue>>> reads = new ArrayList<>(from.size());
        for (int shard = 0; shard < from.size(); shard++) {
            Resume resume = from.get(shard);
            reads.add(resume.done() ? null : read(dynamo.query(request.apply(shard, resume.after())), position));
        }
        return reads;
    }

    /** The id in an item's partition key after {@code prefix}, e.g. the post id of {@code POSTREF#<postId>}. */
    public static String idAfter(Map<String, AttributeValue> item, String prefix) {
        String pk = Items.string(item, TableSchema.PK);
        if (!pk.startsWith(prefix)) {
            throw new MalformedItemException("expected a key starting with " + prefix + " but found " + pk);
        }
        return pk.substring(prefix.length());
    }

    /**
     * The projection expression of {@code attributes}, their placeholders added to {@code names}: several
     * attribute names ({@code status}, {@code data}) are reserved words.
     */
    public static String projection(List<String> attributes, Map<String, String> names) {
        return attributes.stream().map(attribute -> {
            names.put("#" + attribute, attribute);
            return "#" + attribute;
        }).collect(Collectors.joining(", "));
    }

    private static List<String> with(String first, List<String> rest) {
        return Stream.concat(Stream.of(first), rest.stream()).toList();
    }
}
