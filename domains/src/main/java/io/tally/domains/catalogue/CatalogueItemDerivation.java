package io.tally.domains.catalogue;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;

import io.tally.core.TableSchema;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A catalogue item owns its entry in the CycleSelector index (it counts once in the global totals through
 * {@link CatalogueFigures#ITEMS}): one entry
 * per item, in the partition of its selector ({@code back-catalogue} spread over {@code selectorShards}
 * partitions by item id), ranged by score. It announces no events.
 */
public final class CatalogueItemDerivation extends EntityDerivation<CatalogueItem> {
    private final int selectorShards;

    public CatalogueItemDerivation(int selectorShards) {
        super(Catalogue.CATALOGUE_ITEM, CatalogueItem::fromItem);
        this.selectorShards = selectorShards;
    }

    @Override
    protected Contribution contribution(CatalogueItem item) {
        return Contribution.builder()
                .document(Catalogue.SELECTOR_ENTRY, item.itemId(), selectorEntry(item))
                .build();
    }

    /**
     * The revision the writer stamps on every put ({@link CatalogueItem#nextRevision}): above the previous one and
     * at least its clock in microseconds, so that a re-creation after a delete is above the deleted item's. An
     * item written before revisions existed reads as 0, and its entry is then ordered only by the shard watermarks,
     * as before.
     */
    @Override
    protected long revision(CatalogueItem item) {
        return item.revision();
    }

    private Map<String, AttributeValue> selectorEntry(CatalogueItem item) {
        // An item without a title leaves the attribute out, and the document write removes a title it had before.
        Map<String, AttributeValue> values = SelectorEntry.SCHEMA.fieldsOf(SelectorEntry.of(item));
        values.put(TableSchema.SELECTOR,
                s(CatalogueKeys.selectorPartition(item.selector(), item.itemId(), selectorShards)));
        values.put(TableSchema.DATA, n(item.score()));
        return values;
    }
}
