package io.tally.stream.derive;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;

import io.tally.core.CatalogueItem;
import io.tally.core.DerivedSchema.GlobalStats;
import io.tally.core.DerivedSchema.SelectorEntry;
import io.tally.core.EntityType;
import io.tally.core.Keys;
import io.tally.core.TableSchema;
import io.tally.stream.events.DomainEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item counts once in the global totals and owns its entry in the CycleSelector index: one entry
 * per item, in the partition of its selector ({@code back-catalogue} spread over {@code selectorShards}
 * partitions by item id), ranged by score. It announces no events.
 */
public final class CatalogueItemDerivation implements Derivation {
    private static final Set<String> DOCUMENT = Set.copyOf(SelectorEntry.DOCUMENT);

    private final int selectorShards;
    private final int globalShards;

    public CatalogueItemDerivation(int selectorShards, int globalShards) {
        this.selectorShards = DerivedCounters.requireShards(selectorShards, "selectorShards");
        this.globalShards = DerivedCounters.requireShards(globalShards, "globalShards");
    }

    @Override
    public EntityType entityType() {
        return EntityType.CATALOGUE_ITEM;
    }

    @Override
    public Contribution contribution(Map<String, AttributeValue> image) {
        CatalogueItem item = CatalogueItem.fromItem(image);
        return Contribution.builder()
                .count(DerivedCounters.globalStats(item.itemId(), globalShards, GlobalStats.ITEMS), 1)
                .document(Keys.selectorEntry(item.itemId()), selectorEntry(item))
                .build();
    }

    private Document selectorEntry(CatalogueItem item) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(SelectorEntry.ITEM_ID, s(item.itemId()));
        // An item without a title leaves the attribute out, and the document write removes a title it had before.
        if (item.title() != null) {
            values.put(SelectorEntry.TITLE, s(item.title()));
        }
        values.put(SelectorEntry.SCORE, n(item.score()));
        values.put(TableSchema.SELECTOR, s(Keys.selectorPartition(item.selector(), item.itemId(), selectorShards)));
        values.put(TableSchema.DATA, n(item.score()));
        return new Document(EntityType.SELECTOR_ENTRY, DOCUMENT, values);
    }

    @Override
    public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                    Map<String, AttributeValue> newImage) {
        return List.of();
    }
}
