package io.tally.stream.derive;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;

import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.catalogue.CatalogueItem;
import io.tally.core.catalogue.CatalogueKeys;
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
    private static final Set<String> DOCUMENT = Set.copyOf(Catalogue.SELECTOR_ENTRY.document());

    private final int selectorShards;
    private final int globalShards;

    public CatalogueItemDerivation(int selectorShards, int globalShards) {
        this.selectorShards = DerivedCounters.requireShards(selectorShards, "selectorShards");
        this.globalShards = DerivedCounters.requireShards(globalShards, "globalShards");
    }

    @Override
    public EntityType entityType() {
        return Catalogue.CATALOGUE_ITEM;
    }

    @Override
    public Contribution contribution(Map<String, AttributeValue> image) {
        CatalogueItem item = CatalogueItem.fromItem(image);
        return Contribution.builder()
                .count(DerivedCounters.globalStats(item.itemId(), globalShards, Catalogue.GLOBAL_ITEMS), 1)
                .document(CatalogueKeys.selectorEntry(item.itemId()), selectorEntry(item))
                .build();
    }

    private Document selectorEntry(CatalogueItem item) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(Catalogue.Entry.ITEM_ID, s(item.itemId()));
        // An item without a title leaves the attribute out, and the document write removes a title it had before.
        if (item.title() != null) {
            values.put(Catalogue.Entry.TITLE, s(item.title()));
        }
        values.put(Catalogue.Entry.SCORE, n(item.score()));
        values.put(TableSchema.SELECTOR, s(CatalogueKeys.selectorPartition(item.selector(), item.itemId(), selectorShards)));
        values.put(TableSchema.DATA, n(item.score()));
        return new Document(Catalogue.SELECTOR_ENTRY, DOCUMENT, values);
    }

    @Override
    public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                    Map<String, AttributeValue> newImage) {
        return List.of();
    }
}
