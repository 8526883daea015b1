package io.tally.stream.rebuild;

import io.tally.core.PrunerPositionItem;
import io.tally.core.TableSchema;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The watermark pruner's position item ({@link PrunerPositionItem}): which pass is in progress, in which phase, and
 * where each segment of that phase stands. Each segment stores its own position, after every page it has done; the
 * segments write different attributes of the item, so their writes do not overwrite each other.
 */
final class PrunerPosition {
    /** The phases of a pass, in order. */
    enum Phase {
        /** The check of the shard cursors ({@link UnlistedCursors}), before anything is removed. */
        CHECK,
        /** The removal of watermarks and cursors of gone shards. */
        PRUNE;

        String attributeValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where one segment of the phase in progress stands: not begun, after a key, or done. */
    record Segment(Map<String, AttributeValue> after, boolean done) {
        static final Segment NOT_BEGUN = new Segment(null, false);
    }

    /**
     * The pass in progress (its phase, each segment's position), when the last pass began (phase null: none), and
     * whether a pass has completed with every cursor it found in the cursor registry.
     */
    record State(Phase phase, List<Segment> segments, Instant started, boolean cursorsRegistered) {
        static final State NONE = new State(null, List.of(), null, false);

        boolean inProgress() {
            return phase != null;
        }
    }

    private final DynamoDbClient dynamo;
    private final String table;
    private final Clock clock;

    PrunerPosition(DynamoDbClient dynamo, String table, Clock clock) {
        this.dynamo = dynamo;
        this.table = table;
        this.clock = clock;
    }

    State read() {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(PrunerPositionItem.KEY.toAttributeMap())).item();
        if (item == null) {
            return State.NONE;
        }
        AttributeValue started = item.get(PrunerPositionItem.PASS_STARTED);
        Instant startedAt = started == null ? null : Instant.parse(started.s());
        boolean registered = item.containsKey(PrunerPositionItem.CURSORS_REGISTERED);
        AttributeValue phase = item.get(PrunerPositionItem.PHASE);
        if (phase == null) {
            return new State(null, List.of(), startedAt, registered);
        }
        int count = Integer.parseInt(item.get(PrunerPositionItem.SEGMENTS).n());
        Map<String, AttributeValue> stored = item.containsKey(PrunerPositionItem.POSITIONS)
                ? item.get(PrunerPositionItem.POSITIONS).m() : Map.of();
        List<Segment> segments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            AttributeValue position = stored.get(Integer.toString(i));
            if (position == null) {
                segments.add(Segment.NOT_BEGUN);
            } else if (position.m().containsKey(PrunerPositionItem.DONE)) {
                segments.add(new Segment(null, true));
            } else {
                segments.add(new Segment(Map.of(TableSchema.PK, position.m().get(PrunerPositionItem.NEXT_PK),
                        TableSchema.SK, position.m().get(PrunerPositionItem.NEXT_SK)), false));
            }
        }
        return new State(Phase.valueOf(phase.s().toUpperCase(Locale.ROOT)), segments, startedAt, registered);
    }

    /** Stores that a pass of {@code segments} segments begins now, with the check of the cursors. */
    State begin(int segments, boolean cursorsRegistered) {
        Instant now = clock.instant();
        update("SET #t = :t, #phase = :phase, #segments = :segments, #positions = :none, #started = :now"
                        + " REMOVE #legacyPk, #legacySk",
                Map.of("#t", TableSchema.ENTITY_TYPE, "#phase", PrunerPositionItem.PHASE,
                        "#segments", PrunerPositionItem.SEGMENTS, "#positions", PrunerPositionItem.POSITIONS,
                        "#started", PrunerPositionItem.PASS_STARTED, "#legacyPk", PrunerPositionItem.NEXT_PK,
                        "#legacySk", PrunerPositionItem.NEXT_SK),
                Map.of(":t", AttributeValue.fromS(PrunerPositionItem.TYPE.attributeValue()),
                        ":phase", AttributeValue.fromS(Phase.CHECK.attributeValue()),
                        ":segments", AttributeValue.fromN(Integer.toString(segments)),
                        ":none", AttributeValue.fromM(Map.of()), ":now", AttributeValue.fromS(now.toString())));
        return new State(Phase.CHECK, Collections.nCopies(segments, Segment.NOT_BEGUN), now, cursorsRegistered);
    }

    /** Stores that the pass has checked the cursors and begins to prune, every segment from its start. */
    State beginPruning(State checked) {
        update("SET #phase = :phase, #positions = :none",
                Map.of("#phase", PrunerPositionItem.PHASE, "#positions", PrunerPositionItem.POSITIONS),
                Map.of(":phase", AttributeValue.fromS(Phase.PRUNE.attributeValue()),
                        ":none", AttributeValue.fromM(Map.of())));
        return new State(Phase.PRUNE, Collections.nCopies(checked.segments().size(), Segment.NOT_BEGUN),
                checked.started(), checked.cursorsRegistered());
    }

    /** Stores that a segment has done every item up to {@code after}, or, when it is null, all of its items. */
    void store(int segment, Map<String, AttributeValue> after) {
        AttributeValue position = AttributeValue.fromM(after == null
                ? Map.of(PrunerPositionItem.DONE, AttributeValue.fromBool(true))
                : Map.of(PrunerPositionItem.NEXT_PK, after.get(TableSchema.PK),
                        PrunerPositionItem.NEXT_SK, after.get(TableSchema.SK)));
        update("SET #positions.#segment = :position",
                Map.of("#positions", PrunerPositionItem.POSITIONS, "#segment", Integer.toString(segment)),
                Map.of(":position", position));
    }

    /**
     * Stores that the pass reached the end of the table now: every cursor it met is in the cursor registry (it entered
     * those that were not), and stream processors enter the cursors they create.
     */
    void complete() {
        Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table).consistentRead(true)
                .key(PrunerPositionItem.KEY.toAttributeMap())).item();
        boolean unregistered = item != null && item.containsKey(PrunerPositionItem.CURSORS_UNREGISTERED);
        update("SET #completed = :now" + (unregistered ? "" : ", #registered = :true")
                        + " REMOVE #phase, #segments, #positions, #unregistered"
                        + (unregistered ? ", #registered" : ""),
                Map.of("#completed", PrunerPositionItem.PASS_COMPLETED, "#phase", PrunerPositionItem.PHASE,
                        "#segments", PrunerPositionItem.SEGMENTS, "#positions", PrunerPositionItem.POSITIONS,
                        "#registered", PrunerPositionItem.CURSORS_REGISTERED,
                        "#unregistered", PrunerPositionItem.CURSORS_UNREGISTERED),
                unregistered ? Map.of(":now", AttributeValue.fromS(clock.instant().toString()))
                        : Map.of(":now", AttributeValue.fromS(clock.instant().toString()),
                        ":true", AttributeValue.fromBool(true)));
    }

    /**
     * Stores that the pass met a recent cursor of a shard the listing does not hold without a registry entry: until
     * a pass completes without meeting one, passes check the cursors with a scan.
     */
    void cursorsUnregistered() {
        update("SET #unregistered = :true REMOVE #registered",
                Map.of("#unregistered", PrunerPositionItem.CURSORS_UNREGISTERED,
                        "#registered", PrunerPositionItem.CURSORS_REGISTERED),
                Map.of(":true", AttributeValue.fromBool(true)));
    }

    /** Forgets the pass and when it began: it was refused, and the next run begins a pass again. */
    void abandon() {
        update("REMOVE #phase, #segments, #positions, #started",
                Map.of("#phase", PrunerPositionItem.PHASE, "#segments", PrunerPositionItem.SEGMENTS,
                        "#positions", PrunerPositionItem.POSITIONS, "#started", PrunerPositionItem.PASS_STARTED),
                Map.of());
    }

    private void update(String expression, Map<String, String> names, Map<String, AttributeValue> values) {
        dynamo.updateItem(r -> r.tableName(table).key(PrunerPositionItem.KEY.toAttributeMap())
                .updateExpression(expression).expressionAttributeNames(names)
                .expressionAttributeValues(values.isEmpty() ? null : values));
    }
}
