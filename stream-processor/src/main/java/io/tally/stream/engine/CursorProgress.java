package io.tally.stream.engine;

import static io.tally.core.ShardCursorItem.ACKNOWLEDGED;
import static io.tally.core.ShardCursorItem.ATTEMPTS;
import static io.tally.core.ShardCursorItem.OUTAGE_LAST_FILED;
import static io.tally.core.ShardCursorItem.OUTAGE_SINCE;
import static io.tally.core.ShardCursorItem.PENDING;
import static io.tally.core.ShardCursorItem.PENDING_SINCE;
import static io.tally.core.ShardCursorItem.REFUSED;

import io.tally.core.Timestamps;
import io.tally.stream.engine.ShardCursors.Outage;
import io.tally.stream.engine.ShardCursors.Pending;
import io.tally.stream.engine.ShardCursors.Progress;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A shard's {@link Progress} as the attributes of its cursor item ({@link DynamoDbShardCursors}): read from an item, and
 * stored by the clauses a release or a claim adds to its update expression.
 */
final class CursorProgress {
    private CursorProgress() {
    }

    /** Adds the SET and REMOVE clauses (and their names and values) that store {@code progress}. */
    static void store(Progress progress, Map<String, String> names, Map<String, AttributeValue> values,
                                      List<String> set, List<String> remove) {
        names.putAll(Map.of("#pending", PENDING, "#attempts", ATTEMPTS, "#since", PENDING_SINCE, "#refused", REFUSED,
                "#outage", OUTAGE_SINCE, "#outageFiled", OUTAGE_LAST_FILED));
        Pending pending = progress.pending();
        if (pending == null) {
            remove.addAll(List.of("#pending", "#attempts", "#since"));
        } else {
            set.addAll(List.of("#pending = :pending", "#attempts = :attempts"));
            values.put(":pending", AttributeValue.fromS(pending.sequence()));
            values.put(":attempts", AttributeValue.fromN(Integer.toString(pending.attempts())));
            if (pending.since() != null) {
                set.add("#since = :since");
                values.put(":since", AttributeValue.fromS(Timestamps.format(pending.since())));
            } else {
                remove.add("#since");
            }
        }
        if (progress.refused().isEmpty()) {
            remove.add("#refused");
        } else {
            set.add("#refused = :refused");
            Map<String, AttributeValue> refused = new HashMap<>();
            progress.refused().byHash().forEach((hash, when) ->
                    refused.put(hash, AttributeValue.fromN(Long.toString(when.toEpochMilli()))));
            values.put(":refused", AttributeValue.fromM(refused));
        }
        if (progress.outage() == null) {
            // Removing an attribute the item does not have costs nothing: in normal operation there is none.
            remove.addAll(List.of("#outage", "#outageFiled"));
        } else {
            set.addAll(List.of("#outage = :outage", "#outageFiled = :outageFiled"));
            values.put(":outage", AttributeValue.fromS(Timestamps.format(progress.outage().since())));
            values.put(":outageFiled", AttributeValue.fromS(Timestamps.format(progress.outage().lastFiled())));
        }
        if (progress.acknowledged() != null) {
            names.put("#ack", ACKNOWLEDGED);
            set.add("#ack = :ack");
            values.put(":ack", AttributeValue.fromS(progress.acknowledged()));
        }
    }

    /** The progress an item records ({@link Progress#NONE} for no item). */
    static Progress read(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return Progress.NONE;
        }
        Pending pending = null;
        if (item.containsKey(PENDING)) {
            AttributeValue attempts = item.get(ATTEMPTS);
            AttributeValue since = item.get(PENDING_SINCE);
            pending = new Pending(string(item, PENDING), attempts == null ? 0 : Integer.parseInt(attempts.n()),
                    since == null ? null : Timestamps.parse(since.s()));
        }
        return new Progress(pending, string(item, ACKNOWLEDGED), refused(item.get(REFUSED)), outage(item));
    }

    private static Outage outage(Map<String, AttributeValue> item) {
        String since = string(item, OUTAGE_SINCE);
        if (since == null) {
            return null;
        }
        String lastFiled = string(item, OUTAGE_LAST_FILED);
        return new Outage(Timestamps.parse(since), Timestamps.parse(lastFiled == null ? since : lastFiled));
    }

    private static RefusedItems refused(AttributeValue value) {
        if (value == null || !value.hasM()) {
            return RefusedItems.NONE;
        }
        Map<String, Instant> byHash = new HashMap<>();
        value.m().forEach((hash, when) -> byHash.put(hash, Instant.ofEpochMilli(Long.parseLong(when.n()))));
        return new RefusedItems(byHash);
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }
}
