package io.tally.core.catalogue;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A learning-catalogue item (seed 003). The requested selector is stored as {@code itemSelector}, not as the
 * index attribute {@code selector}: the CycleSelector index holds only the selector entries that the stream
 * processor derives (one per item, the back catalogue spread over shards), so an item never appears twice.
 */
public record CatalogueItem(String itemId, String title, long score, String selector, Instant updatedAt) {
    /** Attribute names of the item. */
    public static final String ITEM_ID = "itemId";
    public static final String TITLE = "title";
    public static final String SCORE = "score";
    public static final String ITEM_SELECTOR = "itemSelector";
    public static final String UPDATED_AT = "updatedAt";

    public static final long MAX_SCORE = 1_000_000_000L;

    public Key key() {
        return CatalogueKeys.catalogueItem(itemId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Catalogue.CATALOGUE_ITEM));
        item.put(ITEM_ID, s(itemId));
        if (title != null) {
            item.put(TITLE, s(title));
        }
        item.put(SCORE, n(score));
        item.put(ITEM_SELECTOR, s(selector));
        item.put(UPDATED_AT, ts(updatedAt));
        return item;
    }

    public static CatalogueItem fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Catalogue.CATALOGUE_ITEM);
        return new CatalogueItem(
                Items.string(item, ITEM_ID),
                Items.optionalString(item, TITLE),
                Items.number(item, SCORE),
                Items.string(item, ITEM_SELECTOR),
                Items.instant(item, UPDATED_AT));
    }
}
