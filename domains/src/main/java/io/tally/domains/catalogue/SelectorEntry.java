package io.tally.domains.catalogue;

import io.tally.core.ItemSchema;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item's entry in the CycleSelector index ({@link Catalogue#SELECTOR_ENTRY}), declared once: its document
 * is what {@link CatalogueItemDerivation} writes ({@link #SCHEMA}; an item without a title leaves the attribute out,
 * and the document write then removes a title it had before), and what {@code GET /selectors/{selector}} renders, the
 * title null when the item has none.
 */
public record SelectorEntry(String itemId, String title, long score) {
    static final ItemSchema<SelectorEntry> SCHEMA = ItemSchema.of(SelectorEntry.class,
                    Catalogue.SELECTOR_ENTRY.entityType(), entry -> Catalogue.SELECTOR_ENTRY.key(entry.itemId()))
            .optional(Catalogue.Entry.TITLE)
            .build();

    static SelectorEntry of(CatalogueItem item) {
        return new SelectorEntry(item.itemId(), item.title(), item.score());
    }

    static SelectorEntry fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
