package io.tally.core.view;

import io.tally.core.Items;
import io.tally.core.TableSchema;
import io.tally.core.read.StatsJson;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The top of a ranking: the first {@code limit} entries of each of its index partitions, merged; then, in each
 * partition that may hide entries tied with the last place, every entry of that figure, so that the order of ties by
 * group id is exact. Entries whose figure is 0 or less are left out by the key condition.
 *
 * <p>Cost: {@code shards} queries of {@code limit} entries, plus, when the last place is tied in a partition that has
 * more, every entry of that figure there: a young month whose tenth place has one bookmark reads all the month's
 * entries at one (the index projects keys and a few attributes, some 10,000 entries a 1 MB page). The index orders
 * equal figures in no defined way, so an exact order by id cannot read fewer.
 */
public final class RankingReads {
    /** Most first, ties by group id ascending (ids are ASCII: their order is the code points'). */
    static final Comparator<Ranked> ORDER = Comparator.comparingLong(Ranked::figure).reversed()
            .thenComparing(Ranked::group);

    private RankingReads() {
    }

    /** One group's place: its id and figure. */
    public record Ranked(String group, long figure) {
    }

    /** The top {@code limit} of a bucket (null for a ranking without buckets), in ranking order. */
    public static List<Ranked> top(DynamoDbClient dynamo, String table, RankingView<?, ?> view, String bucket,
                                   int limit) {
        List<String> partitions = java.util.stream.IntStream.range(0, view.shards())
                .mapToObj(shard -> view.partition(bucket, shard)).toList();
        return top(dynamo, table, partitions, item -> ranked(view, item), limit);
    }

    /**
     * The top {@code limit} of any ranking kept in the {@code CycleSelector} index so (its figure the range key
     * {@code data}, its entries spread over these index partitions), in ranking order: the songs' charts as well.
     *
     * @param read an entry as the index returns it
     */
    public static List<Ranked> top(DynamoDbClient dynamo, String table, List<String> partitions,
                                   java.util.function.Function<Map<String, AttributeValue>, Ranked> read, int limit) {
        Map<String, Ranked> candidates = new HashMap<>();
        List<String> unfinished = new ArrayList<>();
        List<Long> lastRead = new ArrayList<>();
        for (String partition : partitions) {
            List<Ranked> entries = new ArrayList<>();
            QueryResponse response;
            Map<String, AttributeValue> start = null;
            do {
                // A page cut short of the limit (DynamoDB's 1 MB) goes on from where it stopped.
                response = dynamo.query(top(table, partition, limit - entries.size()).toBuilder()
                        .exclusiveStartKey(start).build());
                response.items().forEach(item -> entries.add(read.apply(item)));
                start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                        ? response.lastEvaluatedKey() : null;
            } while (start != null && entries.size() < limit);
            entries.forEach(entry -> candidates.put(entry.group(), entry));
            if (start != null && !entries.isEmpty()) {
                unfinished.add(partition);
                lastRead.add(entries.get(entries.size() - 1).figure());
            }
        }
        List<Ranked> top = top(candidates.values(), limit);
        for (int i = 0; i < unfinished.size(); i++) {
            if (mayHideTies(top, limit, lastRead.get(i))) {
                dynamo.queryPaginator(ties(table, unfinished.get(i), top.get(limit - 1).figure())).items()
                        .forEach(item -> {
                            Ranked tied = read.apply(item);
                            candidates.putIfAbsent(tied.group(), tied);
                        });
            }
        }
        return top(candidates.values(), limit);
    }

    /** The first {@code limit} of the candidates in ranking order. */
    static List<Ranked> top(Collection<Ranked> candidates, int limit) {
        return candidates.stream().sorted(ORDER).limit(limit).toList();
    }

    /**
     * Whether a partition read to its first {@code limit} entries, which had more, may hide entries of the top: only
     * entries tied with the last place can, when its last read entry has that figure. The index orders a partition by
     * figure alone, so which of several equal figures come first is not defined.
     */
    static boolean mayHideTies(List<Ranked> top, int limit, long partitionLast) {
        return top.size() == limit && partitionLast == top.get(limit - 1).figure();
    }

    /** The top entries of one index partition, most first; figures of 0 or less left out. */
    static QueryRequest top(String table, String partition, int limit) {
        return query(table, partition, "#data > :zero", Map.of(":zero", AttributeValue.fromN("0"))).toBuilder()
                .limit(limit)
                .build();
    }

    /** Every entry of one index partition with exactly this figure. */
    static QueryRequest ties(String table, String partition, long figure) {
        return query(table, partition, "#data = :n", Map.of(":n", AttributeValue.fromN(Long.toString(figure))));
    }

    private static QueryRequest query(String table, String partition, String range,
                                      Map<String, AttributeValue> values) {
        Map<String, AttributeValue> all = new HashMap<>(values);
        all.put(":p", AttributeValue.fromS(partition));
        return QueryRequest.builder()
                .tableName(table)
                .indexName(TableSchema.CYCLE_SELECTOR_INDEX)
                .keyConditionExpression("#selector = :p AND " + range)
                .expressionAttributeNames(Map.of("#selector", TableSchema.SELECTOR, "#data", TableSchema.DATA))
                .expressionAttributeValues(all)
                .scanIndexForward(false)
                .build();
    }

    /** An entry as the index returns it: its group from its partition key (projected into every index). */
    private static Ranked ranked(RankingView<?, ?> view, Map<String, AttributeValue> item) {
        StatsJson.check(item, view.type().entityType());
        return new Ranked(view.groupOfKey(Items.string(item, TableSchema.PK)), Items.number(item, TableSchema.DATA));
    }
}
