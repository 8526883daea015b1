package io.tally.stream.engine;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Builds the DynamoDB request of a {@link DerivedWrite} (pure, no I/O). */
public final class DerivedWrites {
    /** Counters removed by one request of {@link #zeroRemovals}. */
    static final int ZEROS_PER_REMOVAL = 100;

    private DerivedWrites() {
    }

    /**
     * One UpdateItem that applies the write at most once. On the first attempt the watermark of the item is not
     * known: the condition {@code attribute_not_exists(#wm) OR #wm < :first} accepts the write only if none of its
     * records has been applied (records of one shard reach an item in order, so the watermark is either below all
     * of them or at least the first). When the item's watermark is known from a failed attempt, the write was
     * recomputed for the records after it, and {@code #wm = :expected} (or {@code attribute_not_exists(#wm)} when
     * the item had none) makes sure the item has not moved since.
     *
     * <p>A write holding a document also sets {@code srcRev} to the document's revision, on the further condition
     * {@code attribute_not_exists(#rev) OR #rev <= :rev}: the item holds no document of a newer state of the source,
     * which another shard may have written first. An equal revision is the same state of the source, written again
     * (or an item whose source predates revisions, revision 0, ordered by the watermarks alone as before).
     *
     * <p>Every attribute name goes through a placeholder: names such as {@code data}, {@code status} or
     * {@code comments} are DynamoDB reserved words.
     */
    public static UpdateItemRequest toUpdateItem(String tableName, DerivedWrite write) {
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#type", TableSchema.ENTITY_TYPE);
        names.put("#wm", write.watermarkAttribute());
        values.put(":type", AttributeValue.fromS(write.type().attributeValue()));
        values.put(":last", AttributeValue.fromS(write.lastSequence()));

        List<String> set = new ArrayList<>();
        set.add("#type = if_not_exists(#type, :type)");
        set.add("#wm = :last");
        if (write.hasDocument()) {
            names.put("#rev", TableSchema.SOURCE_REVISION);
            values.put(":rev", AttributeValue.fromN(Long.toString(write.documentRevision())));
            set.add("#rev = :rev");
        }
        int i = 0;
        for (Map.Entry<String, AttributeValue> entry : new TreeMap<>(write.documentSet()).entrySet()) {
            names.put("#s" + i, entry.getKey());
            values.put(":s" + i, entry.getValue());
            set.add("#s" + i + " = :s" + i);
            i++;
        }
        List<String> add = new ArrayList<>();
        // Every write moves the item's version: a repair replaces the item only if none has landed since it read it.
        names.put("#wv", TableSchema.WRITE_VERSION);
        values.put(":one", AttributeValue.fromN("1"));
        add.add("#wv :one");
        i = 0;
        for (Map.Entry<String, Long> entry : new TreeMap<>(write.counterAdds()).entrySet()) {
            names.put("#c" + i, entry.getKey());
            values.put(":c" + i, AttributeValue.fromN(Long.toString(entry.getValue())));
            add.add("#c" + i + " :c" + i);
            i++;
        }
        List<String> remove = new ArrayList<>();
        i = 0;
        for (String attribute : new TreeSet<>(write.documentRemove())) {
            names.put("#r" + i, attribute);
            remove.add("#r" + i);
            i++;
        }

        StringBuilder update = new StringBuilder("SET ").append(String.join(", ", set));
        update.append(" ADD ").append(String.join(", ", add));
        if (!remove.isEmpty()) {
            update.append(" REMOVE ").append(String.join(", ", remove));
        }

        String condition;
        if (!write.watermarkKnown()) {
            condition = "attribute_not_exists(#wm) OR #wm < :first";
            values.put(":first", AttributeValue.fromS(write.firstSequence()));
        } else if (write.expectedWatermark() == null) {
            condition = "attribute_not_exists(#wm)";
        } else {
            condition = "#wm = :expected";
            values.put(":expected", AttributeValue.fromS(write.expectedWatermark()));
        }
        if (write.hasDocument()) {
            condition = "(" + condition + ") AND (attribute_not_exists(#rev) OR #rev <= :rev)";
        }

        return UpdateItemRequest.builder()
                .tableName(tableName)
                .key(write.key().toAttributeMap())
                .updateExpression(update.toString())
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                // The failed condition returns the item, so the retry learns the watermark without a read.
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                // The new values of the counters that go at zero, so that those the write brought to zero can be
                // removed.
                .returnValues(write.removableCounters().isEmpty() ? ReturnValue.NONE : ReturnValue.UPDATED_NEW)
                // The write units the table charged: the item's size in KB, rounded up (tally.stream.derived
                // .maxwriteunits), with the indexes' apart.
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .build();
    }

    /**
     * The removable counters of the write ({@link DerivedWrite#removableCounters}) that its item holds at zero after
     * it, given the attributes the write returned ({@code UPDATED_NEW}). A declared counter stays at zero.
     */
    public static List<String> zeroCounters(DerivedWrite write, Map<String, AttributeValue> updated) {
        List<String> zeros = new ArrayList<>();
        for (String counter : new TreeSet<>(write.removableCounters())) {
            AttributeValue value = updated == null ? null : updated.get(counter);
            if (value != null && value.n() != null && new BigDecimal(value.n()).signum() == 0) {
                zeros.add(counter);
            }
        }
        return zeros;
    }

    /**
     * The UpdateItems that remove these counters from the item while each is still zero (a counter another shard has
     * meanwhile moved stays), at most {@value #ZEROS_PER_REMOVAL} per request: a condition expression takes at most
     * 300 operators, and each counter costs two ({@code = } and {@code AND}). An absent counter reads as zero, so a
     * removal changes no figure; it keeps an item from holding every counter of a family it ever had (a tag deleted
     * long ago).
     */
    public static List<UpdateItemRequest> zeroRemovals(String tableName, Key key, List<String> zeros) {
        List<UpdateItemRequest> requests = new ArrayList<>();
        for (int from = 0; from < zeros.size(); from += ZEROS_PER_REMOVAL) {
            List<String> chunk = zeros.subList(from, Math.min(zeros.size(), from + ZEROS_PER_REMOVAL));
            Map<String, String> names = new HashMap<>();
            List<String> remove = new ArrayList<>();
            List<String> conditions = new ArrayList<>();
            for (int i = 0; i < chunk.size(); i++) {
                names.put("#z" + i, chunk.get(i));
                remove.add("#z" + i);
                conditions.add("#z" + i + " = :zero");
            }
            requests.add(UpdateItemRequest.builder()
                    .tableName(tableName)
                    .key(key.toAttributeMap())
                    .updateExpression("REMOVE " + String.join(", ", remove))
                    .conditionExpression(String.join(" AND ", conditions))
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(Map.of(":zero", AttributeValue.fromN("0")))
                    .build());
        }
        return requests;
    }

    /** The revision of the document an item holds (as returned by a failed condition), or null when it has none. */
    public static Long revisionOf(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        AttributeValue value = item.get(TableSchema.SOURCE_REVISION);
        return value == null || value.n() == null ? null : Long.valueOf(value.n());
    }

    /** The watermark of the write's shard on an item (as returned by a failed condition), or null. */
    public static String watermarkOf(DerivedWrite write, Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        AttributeValue value = item.get(write.watermarkAttribute());
        return value == null ? null : value.s();
    }
}
