package io.tally.core.read;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads of shared derived items ({@link DerivedType#isShared}): the base item and the partials of the stream shards
 * that changed it, which sit beside it in its partition (their sort keys start with the base item's), read with one
 * strongly consistent Query and summed. A partial holds counters only; the document is the base item's.
 *
 * <p>What it costs: a partial is about 100 bytes, and an item has one per stream shard that changed it since its
 * shards' partials were last folded into it (open shards, and closed ones until the next fold); a Query reads up to
 * 4 KB for one read unit, so a user's stats with a dozen partials cost what a GetItem of the item did.
 */
public final class SharedReads {
    private SharedReads() {
    }

    /**
     * One page of the Query of a shared item whole: its base item and its partials, the named attributes (every
     * attribute when {@code attributes} is null: for a type whose counters are named at run time).
     */
    public static QueryRequest query(String table, Key base, List<String> attributes,
                                     Map<String, AttributeValue> startKey) {
        Map<String, String> names = new HashMap<>();
        names.put("#pk", TableSchema.PK);
        names.put("#sk", TableSchema.SK);
        QueryRequest.Builder query = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :sk)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(base.pk()),
                        ":sk", AttributeValue.fromS(base.sk())))
                .consistentRead(true)
                .exclusiveStartKey(startKey);
        if (attributes != null) {
            List<String> projected = new ArrayList<>(attributes);
            projected.add(TableSchema.PK);
            projected.add(TableSchema.SK);
            query.projectionExpression(DerivedReads.projection(projected.stream().distinct().toList(), names));
        }
        return query.expressionAttributeNames(names).build();
    }

    /**
     * The shared item {@code base} whole, with the named attributes: the base item's, each counter summed over the base
     * item and its partials. Null when neither the base item nor a partial exists.
     */
    public static Map<String, AttributeValue> whole(DynamoDbClient dynamo, String table, Key base,
                                                    List<String> attributes) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse response = dynamo.query(query(table, base, attributes, start));
            items.addAll(response.items());
            start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey() : null;
        } while (start != null);
        return merge(base, items);
    }

    /**
     * The items of one shared item merged (pure): the base item's attributes, and each number attribute of a partial
     * added to the base item's (an absent counter is zero). Items that are neither the base item nor one of its
     * partials (a sort key that merely starts with the base item's) are left out; so are the key attributes and the
     * bookkeeping ({@link DerivedType#isReserved}). Null
     * when there is neither.
     */
    public static Map<String, AttributeValue> merge(Key base, List<Map<String, AttributeValue>> items) {
        Map<String, AttributeValue> whole = null;
        Map<String, BigDecimal> sums = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : items) {
            Key key = Key.of(item);
            boolean isBase = key.equals(base);
            if (!isBase && !PartialKeys.baseOf(key).equals(base)) {
                continue;
            }
            if (whole == null) {
                whole = new LinkedHashMap<>();
            }
            for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
                String name = attribute.getKey();
                AttributeValue value = attribute.getValue();
                if (!name.equals(TableSchema.ENTITY_TYPE) && DerivedType.isReserved(name)) {
                    // The key and the bookkeeping (watermarks, revision, write version) are no figure.
                    continue;
                }
                if (value.n() != null) {
                    sums.merge(name, new BigDecimal(value.n()), BigDecimal::add);
                } else if (isBase || !whole.containsKey(name)) {
                    whole.put(name, value);
                }
            }
        }
        if (whole == null) {
            return null;
        }
        for (Map.Entry<String, BigDecimal> sum : sums.entrySet()) {
            whole.put(sum.getKey(), AttributeValue.fromN(sum.getValue().toPlainString()));
        }
        return whole;
    }

    /**
     * Several shared items taken as one (the slots of a slotted type): every number summed, any other attribute as
     * one of them has it. Null when none exists.
     */
    public static Map<String, AttributeValue> sum(List<Map<String, AttributeValue>> wholes) {
        List<Map<String, AttributeValue>> asItems = new ArrayList<>();
        Key any = new Key("-", "-");
        for (Map<String, AttributeValue> whole : wholes) {
            if (whole != null) {
                Map<String, AttributeValue> item = new HashMap<>(whole);
                item.putAll(any.toAttributeMap());
                asItems.add(item);
            }
        }
        return asItems.isEmpty() ? null : merge(any, asItems);
    }
}
