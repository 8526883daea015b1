package io.tally.testkit;

import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.TableSchema;
import io.tally.core.derive.CascadeLinks;
import io.tally.core.domain.Derivations;
import io.tally.core.workload.WorkloadContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The poison of {@link Workload}: items a stream consumer cannot read, new or changed, whatever the domains. A known
 * base item (one a part wrote) is overwritten with one of its type that lacks its fields, which the item's next
 * readable write repairs; new items of a known type without fields, of an unknown type or of none are written; an
 * unreadable item is modified.
 *
 * <p>Only items that take part in no cascade are overwritten: a team or a favourite that cannot be read when it is
 * deleted could not name what its removal removes, which is a poison test of its own, not this one's.
 */
final class Poison {
    /** How many of the parts' latest items are kept to be overwritten. */
    private static final int KNOWN = 1_000;

    private final WorkloadContext context;
    private final Derivations derivations;
    private final Consumer<Map<String, AttributeValue>> sink;
    /** Base items the parts wrote, newest last, at most {@link #KNOWN}. */
    private final List<Map<String, AttributeValue>> known = new ArrayList<>();
    /** Unreadable items written so far, to modify again. */
    private final List<Map<String, AttributeValue>> unreadable = new ArrayList<>();

    /**
     * @param derivations what tells an item that takes part in a cascade
     * @param sink        where the poison goes, apart from the parts' writes
     */
    Poison(WorkloadContext context, Derivations derivations, Consumer<Map<String, AttributeValue>> sink) {
        this.context = context;
        this.derivations = derivations;
        this.sink = sink;
    }

    /** Remembers an item a part wrote, unless it takes part in a cascade. */
    void written(Map<String, AttributeValue> item) {
        Optional<EntityType> type = derivations.registry().entityType(Items.entityTypeName(item));
        if (type.isEmpty() || !derivations.cascadeLinks(type.get(), item).equals(CascadeLinks.NONE)) {
            return;
        }
        if (known.size() == KNOWN) {
            known.remove(0);
        }
        known.add(item);
    }

    /** One unreadable item written, through the context's sink but not remembered as a base item. */
    void step() {
        String id = context.nextId("x");
        int kind = context.random().nextInt(5);
        if (kind == 3 && !known.isEmpty()) {
            Map<String, AttributeValue> item = known.get(context.skewed(known.size()));
            write(Map.of(TableSchema.PK, item.get(TableSchema.PK), TableSchema.SK, item.get(TableSchema.SK),
                    TableSchema.ENTITY_TYPE, item.get(TableSchema.ENTITY_TYPE),
                    "garbled", AttributeValue.fromS("garbled " + id)));
            return;
        }
        if (kind == 4 && !unreadable.isEmpty()) {
            Map<String, AttributeValue> item = new HashMap<>(unreadable.get(context.skewed(unreadable.size())));
            item.put("n", AttributeValue.fromS(id));
            write(item);
            return;
        }
        Map<String, AttributeValue> item = switch (kind % 3) {
            case 0 -> known.isEmpty() ? unknownType(id) : Map.of(TableSchema.PK, AttributeValue.fromS("POISON#" + id),
                    TableSchema.SK, AttributeValue.fromS("#" + id),
                    TableSchema.ENTITY_TYPE, known.get(context.random().nextInt(known.size())).get(TableSchema.ENTITY_TYPE));
            case 1 -> unknownType(id);
            default -> Map.of(TableSchema.PK, AttributeValue.fromS("MISC#" + id), TableSchema.SK, AttributeValue.fromS("x"));
        };
        unreadable.add(item);
        write(item);
    }

    private static Map<String, AttributeValue> unknownType(String id) {
        return Map.of(TableSchema.PK, AttributeValue.fromS("ALBUM#" + id), TableSchema.SK, AttributeValue.fromS("#METADATA#"),
                TableSchema.ENTITY_TYPE, AttributeValue.fromS("Album"));
    }

    private void write(Map<String, AttributeValue> item) {
        sink.accept(item);
    }
}
